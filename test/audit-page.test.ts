import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAudit } from '../server/audit/record';
import { auditExportRoute } from '../server/exports/http';
import { startTestApp, type TestApp } from './support/app';
import { type Caller, callerFor, outcomeOf, signedInUser } from './support/dashboard';

let t: TestApp;
let admin: Caller;
let adminHeaders: Headers;
const alice = { userId: 'usr_alice', email: 'Alice@switchyard.test', role: 'support' };
const origin = (address: string) => ({ requestId: 'req_x', clientAddress: address, userAgent: 'vitest' });

beforeAll(async () => {
  t = await startTestApp();
  adminHeaders = (await signedInUser(t.app, 'admin')).headers;
  admin = await callerFor(t.app, adminHeaders);
  for (let i = 0; i < 7; i++) {
    await recordAudit(t.app.db, { action: 'transaction.poll_now', actor: alice, targetId: `tx_${i}` });
  }
  for (const [email, address] of [
    ['alice@switchyard.test', '203.0.113.1'],
    ['ALICE@switchyard.test', '203.0.113.1'],
    ['bob@switchyard.test', '203.0.113.1'],
    ['alice@switchyard.test', '198.51.100.2'],
  ] as const) {
    await recordAudit(t.app.db, {
      action: 'auth.sign_in_failed',
      actor: null,
      actorEmail: email,
      origin: origin(address),
    });
  }
}, 60_000);
afterAll(() => t?.stop());

describe('audit.list', () => {
  it('filters by actor (email in any case, or user id), action, target and time', async () => {
    const byEmail = await admin.audit.list({ actor: 'ALICE@switchyard.test', action: 'transaction.poll_now' });
    expect(byEmail.items).toHaveLength(7);
    expect((await admin.audit.list({ actor: 'usr_alice' })).items).toHaveLength(7);
    const one = await admin.audit.list({ targetType: 'transaction', targetId: 'tx_3' });
    expect(one.items.map((e) => e.targetId)).toEqual(['tx_3']);
    expect(
      (await admin.audit.list({ actor: 'alice@switchyard.test', action: 'auth.sign_in_failed' })).items,
    ).toHaveLength(3);
    expect((await admin.audit.list({ to: new Date(0) })).items).toEqual([]);
    expect((await admin.audit.list({ from: new Date(Date.now() - 3600_000) })).items.length).toBeGreaterThanOrEqual(11);
  });

  it('pages newest first by keyset, every event once', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await admin.audit.list({ actor: 'usr_alice', limit: 3, ...(cursor && { cursor }) });
      seen.push(...page.items.map((e) => e.targetId ?? ''));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(['tx_6', 'tx_5', 'tx_4', 'tx_3', 'tx_2', 'tx_1', 'tx_0']);
  });

  it('is for admins only, and refuses a cursor it did not make', async () => {
    const support = await callerFor(t.app, (await signedInUser(t.app, 'support')).headers);
    expect(await outcomeOf(support.audit.list({}))).toBe('FORBIDDEN');
    expect(await outcomeOf(support.audit.failedSignIns({}))).toBe('FORBIDDEN');
    expect(await outcomeOf(admin.audit.list({ cursor: 'bm90LWEtY3Vyc29y' }))).toBe('BAD_REQUEST');
  });
});

describe('audit.failedSignIns', () => {
  it('counts failures per address and per account tried, ignoring case', async () => {
    const result = await admin.audit.failedSignIns({ window: '1h' });
    expect(result.total).toBe(4);
    expect(result.byAddress.map((r) => [r.key, r.attempts])).toEqual([
      ['203.0.113.1', 3],
      ['198.51.100.2', 1],
    ]);
    expect(result.byAccount.map((r) => [r.key, r.attempts])).toEqual([
      ['alice@switchyard.test', 3],
      ['bob@switchyard.test', 1],
    ]);
  });
});

describe('GET /api/exports/audit', () => {
  const download = (filter: Record<string, unknown>, headers: Headers) =>
    auditExportRoute(
      new Request(`http://127.0.0.1:3000/api/exports/audit?input=${encodeURIComponent(JSON.stringify(filter))}`, {
        headers,
      }),
      t.app,
    );

  it('streams the filtered events as RFC 4180 CSV, formula cells neutralised, and records the export', async () => {
    await recordAudit(t.app.db, {
      action: 'auth.sign_in_failed',
      actor: null,
      actorEmail: '=HYPERLINK("http://x.test","a,b")',
      origin: origin('192.0.2.200'),
    });
    const response = await download({ action: 'auth.sign_in_failed' }, adminHeaders);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-total-count')).toBe('5');
    const lines = (await response.text()).split('\r\n');
    expect(lines[0]).toBe(
      'id,at,actor_user_id,actor_email,actor_role,action,target_type,target_id,before,after,request_id,client_address,user_agent,prev_hash,hash',
    );
    expect(lines).toHaveLength(7);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://x.test"",""a,b"")"`);
    expect(lines[1]).toMatch(/^\d+,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z,/);
    const [recorded] = await t.app.sql<{ after: { filter: unknown }; request_id: string }[]>`
      select after, request_id from audit_events where action = 'export' and target_id = 'audit' order by id desc limit 1`;
    expect(recorded?.after.filter).toEqual({ action: 'auth.sign_in_failed' });
    expect(recorded?.request_id).toBe(response.headers.get('x-request-id'));
  });

  it('is for admins only', async () => {
    const support = await signedInUser(t.app, 'support');
    expect((await download({}, support.headers)).status).toBe(403);
    expect((await download({}, new Headers())).status).toBe(401);
  });
});
