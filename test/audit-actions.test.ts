import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredAuditRow } from '../server/audit/verify';
import { handleAuthRequestFor } from '../server/auth/handler';
import { newWebhookMessageId } from '../server/ids';
import { signInFailures } from '../server/observability/registry';
import { signedClientAddress } from '../server/ratelimit/client';
import { handleTrpcRequest } from '../server/trpc/handler';
import { startTestApp, type TestApp } from './support/app';
import { type Caller, callerFor, cookieHeader, PASSWORD, type SignedInUser, signedInUser } from './support/dashboard';
import { ETH_TO_BTC } from './support/fixtures';
import { executeSwap } from './support/flows';

const BASE = 'http://127.0.0.1:3000';

let t: TestApp;
let admin: SignedInUser;
let adminCaller: Caller;
beforeAll(async () => {
  t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_MAX_ENDPOINTS_PER_OWNER: '2' });
  admin = await signedInUser(t.app, 'admin');
  adminCaller = await callerFor(t.app, admin.headers);
}, 60_000);
afterAll(() => t?.stop());

type AuditRow = StoredAuditRow;

const rowsFor = (action: string, targetId?: string) =>
  t.app.sql<AuditRow[]>`
    select * from audit_events
    where action = ${action} and (${targetId ?? null}::text is null or target_id = ${targetId ?? null})
    order by id`;

/** A request as our node:http layer hands it on: the socket's address signed in its header. */
const fromAddress = (address: string, headers: Record<string, string> = {}) => ({
  'x-switchyard-client-ip': signedClientAddress(address),
  'user-agent': 'audit-test/1.0',
  ...headers,
});

const authPost = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  handleAuthRequestFor(
    t.app,
    new Request(`${BASE}/api/auth${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: BASE, ...headers },
      body: JSON.stringify(body),
    }),
  );

describe('sign-in and sign-out', () => {
  it('records a sign-in with the role at the time, the address and the user agent', async () => {
    const user = await signedInUser(t.app, 'support');
    const response = await authPost(
      '/sign-in/email',
      { email: user.email, password: PASSWORD },
      fromAddress('198.51.100.4'),
    );
    expect(response.status).toBe(200);
    const [row] = (await rowsFor('auth.sign_in', user.id)).slice(-1);
    expect(row).toMatchObject({
      actor_user_id: user.id,
      actor_email: user.email,
      actor_role: 'support',
      target_type: 'user',
      client_address: '198.51.100.4',
      user_agent: 'audit-test/1.0',
    });
    expect(row?.request_id).toMatch(/^req_/);

    await authPost('/sign-out', {}, { ...fromAddress('198.51.100.4'), cookie: cookieHeader(response.headers) });
    expect(await rowsFor('auth.sign_out', user.id)).toHaveLength(1);
  });

  it('records a failed sign-in with no actor, the email tried and the address, and counts it', async () => {
    const user = await signedInUser(t.app, 'affiliate');
    const before = (await signInFailures.get()).values[0]?.value ?? 0;
    const wrong = await authPost(
      '/sign-in/email',
      { email: user.email.toUpperCase(), password: 'not the password at all' },
      fromAddress('203.0.113.9'),
    );
    expect(wrong.status).toBe(401);
    await authPost(
      '/sign-in/email',
      { email: 'nobody@switchyard.test', password: 'whatever it is' },
      fromAddress('203.0.113.9'),
    );
    const failed = await t.app.sql<AuditRow[]>`
      select * from audit_events where action = 'auth.sign_in_failed' and client_address = '203.0.113.9' order by id`;
    expect(failed.map((r) => [r.actor_user_id, r.actor_email])).toEqual([
      [null, user.email],
      [null, 'nobody@switchyard.test'],
    ]);
    expect((await signInFailures.get()).values[0]?.value).toBe(before + 2);
  });
});

describe('self sign-up', () => {
  it('records the account created, its own actor', async () => {
    const email = 'self-made@switchyard.test';
    const response = await authPost(
      '/sign-up/email',
      { email, password: PASSWORD, name: 'Self' },
      fromAddress('192.0.2.8'),
    );
    expect(response.status).toBe(200);
    const [row] = await t.app.sql<
      AuditRow[]
    >`select * from audit_events where action = 'user.create' and actor_email = ${email}`;
    expect(row).toMatchObject({
      actor_role: 'affiliate',
      after: { email, role: 'affiliate' },
      client_address: '192.0.2.8',
    });
    expect(row?.target_id).toBe(row?.actor_user_id);
  });
});

describe('user management', () => {
  it('records create, role change (before and after), deactivation, reactivation and password reset', async () => {
    const created = await adminCaller.users.create({
      email: 'audited@switchyard.test',
      name: 'Audited',
      password: PASSWORD,
      role: 'support',
    });
    await adminCaller.users.setRole({ userId: created.id, role: 'affiliate' });
    await adminCaller.users.deactivate({ userId: created.id });
    await adminCaller.users.reactivate({ userId: created.id });
    await adminCaller.users.resetPassword({ userId: created.id });
    const [create] = await rowsFor('user.create', created.id);
    expect(create).toMatchObject({ actor_user_id: admin.id, actor_role: 'admin', after: { role: 'support' } });
    expect(JSON.stringify(create)).not.toContain(PASSWORD);
    const [change] = await rowsFor('user.role_change', created.id);
    expect(change).toMatchObject({ before: { role: 'support' }, after: { role: 'affiliate' } });
    expect(change?.request_id).toMatch(/^req_/);
    expect(await rowsFor('user.deactivate', created.id)).toHaveLength(1);
    expect(await rowsFor('user.reactivate', created.id)).toHaveLength(1);
    const [reset] = await rowsFor('user.password_reset', created.id);
    expect(JSON.stringify(reset)).not.toMatch(/temporaryPassword/);
  });

  it('a refused role change records nothing', async () => {
    await expect(adminCaller.users.setRole({ userId: 'usr_missing', role: 'support' })).rejects.toThrow();
    expect(await rowsFor('user.role_change', 'usr_missing')).toHaveLength(0);
  });
});

describe('webhooks', () => {
  it('records create, update (enable), rotate, redeliver and delete, never a secret', async () => {
    const owner = await signedInUser(t.app, 'affiliate');
    const caller = await callerFor(t.app, owner.headers);
    const { endpoint, secret } = await caller.webhooks.create({ url: 'http://127.0.0.1:9/hook', scope: 'affiliate' });
    await t.app
      .sql`update webhook_endpoints set enabled = false, disabled_reason = 'failing' where id = ${endpoint.id}`;
    await caller.webhooks.enable({ endpointId: endpoint.id });
    const rotated = await caller.webhooks.rotateSecret({ endpointId: endpoint.id });
    const messageId = newWebhookMessageId();
    await t.app.sql`
      insert into webhook_messages (id, endpoint_id, transaction_id, event_type, digest, payload, state, attempts)
      values (${messageId}, ${endpoint.id}, 'tx_none', 'transaction.created', 'd', '{}'::jsonb, 'delivered', 1)`;
    await caller.webhooks.redeliver({ messageId });
    await caller.webhooks.delete({ endpointId: endpoint.id });

    const rows = await t.app.sql<AuditRow[]>`
      select * from audit_events where actor_user_id = ${owner.id} and action like 'webhook.%' order by id`;
    expect(rows.map((r) => [r.action, r.target_id])).toEqual([
      ['webhook.create', endpoint.id],
      ['webhook.update', endpoint.id],
      ['webhook.rotate_secret', endpoint.id],
      ['webhook.redeliver', messageId],
      ['webhook.delete', endpoint.id],
    ]);
    expect(rows[1]).toMatchObject({ before: { enabled: false }, after: { enabled: true } });
    const all = JSON.stringify(rows);
    expect(all).not.toContain(secret);
    expect(all).not.toContain(rotated.secret);
  });

  it('a create refused inside its transaction (over the cap) records nothing', async () => {
    const owner = await signedInUser(t.app, 'affiliate');
    const caller = await callerFor(t.app, owner.headers);
    for (const n of [1, 2]) await caller.webhooks.create({ url: `http://127.0.0.1:9/h${n}`, scope: 'affiliate' });
    await expect(caller.webhooks.create({ url: 'http://127.0.0.1:9/h3', scope: 'affiliate' })).rejects.toThrow();
    const rows = await t.app.sql`
      select 1 from audit_events where actor_user_id = ${owner.id} and action = 'webhook.create'`;
    expect(rows).toHaveLength(2);
  });
});

describe('referral codes and poll-now', () => {
  it('records a referral code created, and nothing for one refused as taken', async () => {
    const owner = await signedInUser(t.app, 'affiliate');
    const caller = await callerFor(t.app, owner.headers);
    await caller.affiliates.createCode({ code: 'audit-desk', label: 'Desk' });
    await expect(caller.affiliates.createCode({ code: 'AUDIT-DESK' })).rejects.toThrow(/taken/);
    const rows = await rowsFor('referral_code.create');
    expect(rows.filter((r) => r.actor_user_id === owner.id).map((r) => r.target_id)).toEqual(['audit-desk']);
  });

  it('records a poll-now through the HTTP layer, with the response’s request id', async () => {
    t.sims.RELAY.configure({ settleAfterPolls: 5, outcome: 'success' });
    const { transaction } = await executeSwap(t, ETH_TO_BTC, 'RELAY');
    const support = await signedInUser(t.app, 'support');
    const response = await handleTrpcRequest(
      new Request(`${BASE}/api/trpc/transactions.pollNow`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          cookie: support.headers.get('cookie') ?? '',
          ...fromAddress('192.0.2.33'),
        },
        body: JSON.stringify({ json: { id: transaction.id } }),
      }),
      t.app,
    );
    expect(response.status).toBe(200);
    const [row] = await rowsFor('transaction.poll_now', transaction.id);
    expect(row).toMatchObject({
      actor_user_id: support.id,
      actor_role: 'support',
      target_type: 'transaction',
      client_address: '192.0.2.33',
      user_agent: 'audit-test/1.0',
      request_id: response.headers.get('x-request-id'),
      before: { status: 'PENDING' },
    });
  });
});
