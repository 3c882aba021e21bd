import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  affiliateStatementExportRoute,
  affiliateSwapsExportRoute,
  auditExportRoute,
  transactionsExportRoute,
} from '../server/exports/http';
import { startTestApp, type TestApp } from './support/app';
import { type SignedInUser, signedInUser } from './support/dashboard';

/** Only an export that opens (and so starts streaming) is audited as one; each way of refusing one is not. */
let t: TestApp;
let alice: SignedInUser;
let bob: SignedInUser;
let support: SignedInUser;
beforeAll(async () => {
  // A pool of two: exports opening together must still leave their audits a connection.
  t = await startTestApp({ RATE_LIMIT_DASHBOARD: '3', DATABASE_POOL_MAX: '2' });
  [alice, bob, support] = [
    await signedInUser(t.app, 'affiliate'),
    await signedInUser(t.app, 'affiliate'),
    await signedInUser(t.app, 'support'),
  ];
}, 60_000);
afterAll(() => t?.stop());

type Route = typeof transactionsExportRoute;
const download = (route: Route, path: string, input: unknown, headers: Headers) =>
  route(
    new Request(`http://127.0.0.1:3000/api/exports/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, {
      headers,
    }),
    t.app,
  );

const exportsBy = async (user: SignedInUser) =>
  (
    await t.app.sql<{ target_id: string }[]>`
      select target_id from audit_events where action = 'export' and actor_user_id = ${user.id} order by id`
  ).map((r) => r.target_id);

describe('an export refused', () => {
  it("for someone else's statement or swap lines is not audited as an export; the affiliate's own is", async () => {
    const october = { from: '2026-10-01', to: '2026-10-31' };
    for (const [route, path] of [
      [affiliateStatementExportRoute, 'affiliate-statement'],
      [affiliateSwapsExportRoute, 'affiliate-swaps'],
    ] as const) {
      const refused = await download(route, path, { ...october, ownerId: bob.id }, alice.headers);
      expect(refused.status).toBe(404);
    }
    expect(await exportsBy(alice)).toEqual([]);

    const own = await download(affiliateSwapsExportRoute, 'affiliate-swaps', october, alice.headers);
    expect(own.status).toBe(200);
    await own.text();
    expect(await exportsBy(alice)).toEqual(['affiliate-swaps']);
  });

  it('by role, input or rate limit is not audited either', async () => {
    expect((await download(auditExportRoute, 'audit', {}, support.headers)).status).toBe(403);
    expect((await download(transactionsExportRoute, 'transactions', { perPage: 'x' }, support.headers)).status).toBe(
      400,
    );
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await download(transactionsExportRoute, 'transactions', {}, support.headers);
      statuses.push(res.status);
      await res.text();
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect(await exportsBy(support)).toEqual(['transactions', 'transactions']);
  });
});

describe('exports opening together', () => {
  it('each get their audit event though the pool is smaller than the burst', async () => {
    const users: SignedInUser[] = [];
    for (let i = 0; i < 4; i++) users.push(await signedInUser(t.app, 'affiliate'));
    const october = { from: '2026-10-01', to: '2026-10-31' };
    const statuses = await Promise.all(
      users.map(async (user) => {
        const res = await download(affiliateSwapsExportRoute, 'affiliate-swaps', october, user.headers);
        await res.text();
        return res.status;
      }),
    );
    expect(statuses).toEqual([200, 200, 200, 200]);
    for (const user of users) expect(await exportsBy(user)).toEqual(['affiliate-swaps']);
  }, 30_000);
});
