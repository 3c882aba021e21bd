import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleTrpcRequest } from '../server/trpc/handler';
import { startTestApp, type TestApp } from './support/app';
import { callerFor, outcomeOf, type SignedInUser, signedInUser } from './support/dashboard';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_DASHBOARD: '30', TRPC_MAX_BATCH: '20', MAX_REFERRAL_CODES_PER_AFFILIATE: '3' });
});
afterAll(() => t?.stop());

const BASE = 'http://127.0.0.1:3000';

/** A GET batch of `calls` affiliates.overview calls, as the dashboard's client sends it. */
function overviewBatch(user: SignedInUser, calls: number) {
  const input = Object.fromEntries(Array.from({ length: calls }, (_, i) => [i, { json: { range: '24h' } }]));
  const paths = Array(calls).fill('affiliates.overview').join(',');
  const url = `${BASE}/api/trpc/${paths}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`;
  return handleTrpcRequest(new Request(url, { headers: user.headers }), t.app);
}

const codesOf = (body: { error?: { json?: { data?: { code?: string } } } }[]) =>
  body.map((r) => r.error?.json?.data?.code ?? 'OK');

describe('dashboard batches', () => {
  it('a batch of 250 calls is refused before any runs; TRPC_MAX_BATCH calls are answered', async () => {
    const affiliate = await signedInUser(t.app, 'affiliate');
    const huge = await overviewBatch(affiliate, 250);
    expect(huge.status).toBe(400);
    expect((await huge.json()).error.message).toMatch(/at most 20 calls/);
    const over = await overviewBatch(affiliate, 21);
    expect(over.status).toBe(400);
    const allowed = await overviewBatch(affiliate, 20);
    expect(allowed.status).toBe(200);
    expect(new Set(codesOf(await allowed.json()))).toEqual(new Set(['OK']));
  });
});

describe('dashboard calls per user', () => {
  it('past RATE_LIMIT_DASHBOARD calls a user gets TOO_MANY_REQUESTS with Retry-After; another user is not affected', async () => {
    const busy = await signedInUser(t.app, 'affiliate');
    const other = await signedInUser(t.app, 'affiliate');
    expect(new Set(codesOf(await (await overviewBatch(busy, 20)).json()))).toEqual(new Set(['OK']));
    const second = await overviewBatch(busy, 20);
    const outcomes = codesOf(await second.json());
    expect(outcomes.filter((c) => c === 'OK')).toHaveLength(10);
    expect(outcomes.filter((c) => c === 'TOO_MANY_REQUESTS')).toHaveLength(10);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(second.headers.get('x-ratelimit-limit')).toBe('30');
    expect(await outcomeOf((await callerFor(t.app, busy.headers)).affiliates.overview({ range: '24h' }))).toBe(
      'TOO_MANY_REQUESTS',
    );
    expect(await outcomeOf((await callerFor(t.app, other.headers)).affiliates.overview({ range: '24h' }))).toBe('OK');
  });
});

describe('referral codes per affiliate', () => {
  it('MAX_REFERRAL_CODES_PER_AFFILIATE codes, then a clear CONFLICT naming the cap, also when created at once', async () => {
    const one = await signedInUser(t.app, 'affiliate');
    const caller = await callerFor(t.app, one.headers);
    for (const code of ['cap-a1', 'cap-a2', 'cap-a3']) await caller.affiliates.createCode({ code });
    const refused = caller.affiliates.createCode({ code: 'cap-a4' });
    await expect(refused).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/at most 3/) });

    const racing = await callerFor(t.app, (await signedInUser(t.app, 'affiliate')).headers);
    const outcomes = await Promise.all(
      ['cap-b1', 'cap-b2', 'cap-b3', 'cap-b4', 'cap-b5', 'cap-b6'].map((code) =>
        outcomeOf(racing.affiliates.createCode({ code })),
      ),
    );
    expect(outcomes.filter((o) => o === 'OK')).toHaveLength(3);
    expect(outcomes.filter((o) => o === 'CONFLICT')).toHaveLength(3);
  });
});

describe("the admin overview's code list", () => {
  it('is paged newest first by a keyset cursor, every code once, with the total of all codes', async () => {
    const created = [];
    for (const owner of ['page-a', 'page-b']) {
      const affiliate = await callerFor(t.app, (await signedInUser(t.app, 'affiliate')).headers);
      for (const n of [1, 2, 3]) {
        await affiliate.affiliates.createCode({ code: `${owner}${n}` });
        created.unshift(`${owner}${n}`);
      }
    }
    const admin = await callerFor(t.app, (await signedInUser(t.app, 'admin')).headers);
    const first = await admin.affiliates.overview({ range: '24h', codesPerPage: 2 });
    const total = first.totals.codes;
    expect(total).toBeGreaterThanOrEqual(6);
    expect(first.codes).toHaveLength(2);
    const seen = first.codes.map((c) => c.code);
    let cursor = first.codesNextCursor;
    for (let page = 0; cursor && page < 20; page++) {
      const next = await admin.affiliates.overview({ range: '24h', codesPerPage: 2, codesCursor: cursor });
      expect(next.totals.codes).toBe(total);
      seen.push(...next.codes.map((c) => c.code));
      cursor = next.codesNextCursor;
    }
    expect(cursor).toBeNull();
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(total);
    expect(seen.slice(0, created.length)).toEqual(created);
    expect((await admin.affiliates.overview({ range: '24h' })).codes.length).toBeLessThanOrEqual(50);
    expect(await outcomeOf(admin.affiliates.overview({ range: '24h', codesCursor: 'garbage\u0000' }))).toBe(
      'BAD_REQUEST',
    );
  });
});
