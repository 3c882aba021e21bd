import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../server/config';
import { type AppContext, createAppContext } from '../server/context';
import { webhookEventSchema } from '../server/schemas/responses';
import { deliverMessage } from '../server/webhooks/deliver';
import { judgeAddress } from '../server/webhooks/guard';
import type { TestApp } from './support/app';
import { type Caller, callerFor, outcomeOf, type SignedInUser, signedInUser } from './support/dashboard';
import { BTC_TO_ETH, ETH_TO_BTC } from './support/fixtures';
import { executeSwap, randomHex, waitForStatus } from './support/flows';
import { spawnEntry, waitUntil } from './support/processes';
import { withTrackingApp } from './support/tracking-app';
import { type Received, startReceiver } from './support/webhook-receivers';

vi.setConfig({ testTimeout: 45_000 });

let t: TestApp;
withTrackingApp(
  2,
  (app) => {
    t = app;
  },
  { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_BASE_DELAY_MS: '50', WEBHOOK_ENDPOINT_BACKOFF_MS: '50' },
);

const verifyWith = (secret: string, { headers, body }: Received) =>
  new Webhook(secret).verify(body, headers as Record<string, string>) as { type: string; data: { id: string } };

let admin: SignedInUser;
let asAdmin: Caller;
beforeAll(async () => {
  admin = await signedInUser(t.app, 'admin');
  asAdmin = await callerFor(t.app, admin.headers);
});

async function endpointFor(caller: Caller, url: string, scope: 'all' | 'affiliate' = 'all') {
  return caller.webhooks.create({ url, scope });
}

describe('webhook delivery, end to end through the worker', () => {
  it('sends transaction.created, the status change and transaction.final, signed per Standard Webhooks', async () => {
    const receiver = await startReceiver();
    const { endpoint, secret } = await endpointFor(asAdmin, receiver.url);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    try {
      t.sims.RELAY.configure({ outcome: 'success' });
      const id = (await executeSwap(t, ETH_TO_BTC, 'RELAY')).transaction.id;
      await waitForStatus(t, id, (tx) => tx.status === 'SUCCESS');
      const mine = () => receiver.requests.filter((r) => JSON.parse(r.body).data.id === id);
      expect(await waitUntil(() => mine().some((r) => JSON.parse(r.body).type === 'transaction.final'))).toBe(true);

      const verified = mine().map((r) => verifyWith(secret, r) as Record<string, any>);
      const types = verified.map((e) => e.type);
      expect(types[0]).toBe('transaction.created');
      expect(types.at(-1)).toBe('transaction.final');
      expect(types.slice(1, -1).every((type) => type === 'transaction.status_changed')).toBe(true);
      const created = verified[0] as Record<string, any>;
      const final = verified.at(-1) as Record<string, any>;
      expect(created.data).toMatchObject({ id, status: 'PENDING', provider: 'RELAY' });
      expect(final.data).toMatchObject({ id, status: 'SUCCESS' });
      expect(final.data.outboundHash).toBeTruthy();
      expect(Object.keys(final).sort()).toEqual(['data', 'timestamp', 'type']);
      for (const event of verified) expect(webhookEventSchema.safeParse(event).error).toBeUndefined();
      const status = await t.json(`/api/v1/transaction/status?transactionId=${id}`);
      expect(final.data).toEqual(status.body.data.transaction);

      const ids = mine().map((r) => r.headers['webhook-id']);
      expect(new Set(ids).size).toBe(ids.length);
      for (const r of mine()) {
        expect(r.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
        expect(() => verifyWith('whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', r)).toThrow();
      }
      // An attempt is logged after its answer is read, so the last one can be logged after the receiver has it.
      const logged = () => asAdmin.webhooks.transactionDeliveries({ transactionId: id });
      expect(await waitUntil(async () => (await logged()).length === ids.length)).toBe(true);
      const log = await logged();
      expect(log).toHaveLength(ids.length);
      for (const attempt of log)
        expect(attempt).toMatchObject({ statusCode: 204, attempt: 1, messageState: 'delivered' });
    } finally {
      await asAdmin.webhooks.delete({ endpointId: endpoint.id });
      await receiver.stop();
    }
  });

  it('sends a change while pending (a reported deposit hash) as transaction.status_changed', async () => {
    const receiver = await startReceiver();
    const { endpoint, secret } = await endpointFor(asAdmin, receiver.url);
    const hash = randomHex();
    try {
      t.sims.THORCHAIN.configure({ outcome: 'success', settleAfterPolls: 20 });
      const id = (await executeSwap(t, BTC_TO_ETH, 'THORCHAIN')).transaction.id;
      await t.post('/api/v1/transaction/track', { transactionId: id, txHash: hash });
      await waitForStatus(t, id, (tx) => tx.status === 'SUCCESS');
      const mine = () => receiver.requests.filter((r) => JSON.parse(r.body).data.id === id);
      expect(await waitUntil(() => mine().some((r) => JSON.parse(r.body).type === 'transaction.final'))).toBe(true);
      const events = mine().map((r) => verifyWith(secret, r) as Record<string, any>);
      const changed = events.find((e) => e.type === 'transaction.status_changed');
      expect(changed?.data).toMatchObject({ id, status: 'PENDING', hash });
    } finally {
      t.sims.THORCHAIN.configure({ settleAfterPolls: 2 });
      await asAdmin.webhooks.delete({ endpointId: endpoint.id });
      await receiver.stop();
    }
  });

  it('retries a failing receiver with backoff, the same webhook-id on every attempt, and logs each attempt', async () => {
    const receiver = await startReceiver((n) => (n <= 2 ? 500 : 200));
    const { endpoint, secret } = await endpointFor(asAdmin, receiver.url);
    try {
      t.sims.RELAY.configure({ outcome: 'failure', settleAfterPolls: 50 });
      const id = (await executeSwap(t, ETH_TO_BTC, 'RELAY')).transaction.id;
      // Changes while pending (a new substatus) are messages of their own: follow the created one.
      const created = () =>
        receiver.requests.filter(
          (r) => JSON.parse(r.body).data.id === id && JSON.parse(r.body).type === 'transaction.created',
        );
      expect(await waitUntil(() => created().length >= 3)).toBe(true);
      const [first, second, third] = created() as [Received, Received, Received];
      expect(verifyWith(secret, first).type).toBe('transaction.created');
      expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
      expect(third.headers['webhook-id']).toBe(first.headers['webhook-id']);
      expect(third.body).toBe(first.body);
      expect(verifyWith(secret, third).data.id).toBe(id);

      const messageId = String(first.headers['webhook-id']);
      const attemptsOfCreated = async () =>
        (await asAdmin.webhooks.deliveries({ endpointId: endpoint.id })).filter((d) => d.messageId === messageId);
      await waitUntil(async () => (await attemptsOfCreated()).length >= 3);
      const log = await attemptsOfCreated();
      expect(log.map((d) => [d.attempt, d.statusCode, d.error])).toEqual([
        [3, 200, null],
        [2, 500, 'answered 500'],
        [1, 500, 'answered 500'],
      ]);
      // Other messages of the swap (its status changes) fail their first attempts too: once one is delivered, the failure clock is clear.
      const clockCleared = async () => {
        const [row] = await t.app.sql`select failing_since, enabled from webhook_endpoints where id = ${endpoint.id}`;
        return row?.failing_since === null && row?.enabled === true;
      };
      expect(await waitUntil(clockCleared)).toBe(true);
    } finally {
      t.sims.RELAY.configure({ settleAfterPolls: 2 });
      await asAdmin.webhooks.delete({ endpointId: endpoint.id });
      await receiver.stop();
    }
  });

  it('redelivers a message with its original webhook-id, and signs with both secrets during a rotation', async () => {
    const receiver = await startReceiver();
    const { endpoint, secret } = await endpointFor(asAdmin, receiver.url);
    try {
      t.sims.RELAY.configure({ outcome: 'success' });
      const id = (await executeSwap(t, ETH_TO_BTC, 'RELAY')).transaction.id;
      const mine = () => receiver.requests.filter((r) => JSON.parse(r.body).data.id === id);
      expect(await waitUntil(() => mine().length >= 1)).toBe(true);
      const original = mine()[0] as Received;

      const rotated = await asAdmin.webhooks.rotateSecret({ endpointId: endpoint.id });
      expect(rotated.secret).not.toBe(secret);
      await asAdmin.webhooks.redeliver({ messageId: String(original.headers['webhook-id']) });
      const redelivered = () =>
        receiver.requests.filter((r) => r !== original && r.headers['webhook-id'] === original.headers['webhook-id']);
      expect(await waitUntil(() => redelivered().length === 1)).toBe(true);
      const again = redelivered()[0] as Received;
      expect(String(again.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(verifyWith(rotated.secret, again).data.id).toBe(id);
      expect(verifyWith(secret, again).data.id).toBe(id);
    } finally {
      await asAdmin.webhooks.delete({ endpointId: endpoint.id });
      await receiver.stop();
    }
  });

  it('disables an endpoint whose deliveries have failed for days, and sends it nothing more', async () => {
    const receiver = await startReceiver(() => 503);
    const { endpoint } = await endpointFor(asAdmin, receiver.url);
    const witness = await startReceiver();
    let witnessEndpoint: string | undefined;
    try {
      await t.app.sql`update webhook_endpoints set failing_since = now() - interval '6 days' where id = ${endpoint.id}`;
      await executeSwap(t, ETH_TO_BTC, 'RELAY');
      const listed = async () => (await asAdmin.webhooks.list()).find((e) => e.id === endpoint.id);
      expect(await waitUntil(async () => (await listed())?.enabled === false)).toBe(true);
      expect((await listed())?.disabledReason).toMatch(/failed for 5 days/);

      witnessEndpoint = (await endpointFor(asAdmin, witness.url)).endpoint.id;
      const later = (await executeSwap(t, ETH_TO_BTC, 'RELAY')).transaction.id;
      expect(await waitUntil(() => witness.events().some((e) => e.data.id === later))).toBe(true);
      const sent = await t.app.sql`
        select id from webhook_messages where endpoint_id = ${endpoint.id} and transaction_id = ${later}`;
      expect(sent).toHaveLength(0);

      await asAdmin.webhooks.enable({ endpointId: endpoint.id });
      expect(await listed()).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    } finally {
      await asAdmin.webhooks.delete({ endpointId: endpoint.id });
      if (witnessEndpoint) await asAdmin.webhooks.delete({ endpointId: witnessEndpoint });
      await receiver.stop();
      await witness.stop();
    }
  });

  it('sends an affiliate only the swaps attributed to its referral codes', async () => {
    const receiver = await startReceiver();
    const affiliate = await signedInUser(t.app, 'affiliate');
    const asAffiliate = await callerFor(t.app, affiliate.headers);
    await asAffiliate.affiliates.createCode({ code: 'HOOKED' });
    const { endpoint } = await endpointFor(asAffiliate, receiver.url, 'affiliate');
    try {
      t.sims.RELAY.configure({ outcome: 'success' });
      const stranger = (await executeSwap(t, ETH_TO_BTC, 'RELAY')).transaction.id;
      const referred = (await executeSwap(t, { ...ETH_TO_BTC, referralCode: 'HOOKED' }, 'RELAY')).transaction.id;
      await waitForStatus(t, stranger, (tx) => tx.status === 'SUCCESS');
      await waitForStatus(t, referred, (tx) => tx.status === 'SUCCESS');
      expect(await waitUntil(() => receiver.events().some((e) => e.type === 'transaction.final'))).toBe(true);
      expect(new Set(receiver.events().map((e) => e.data.id))).toEqual(new Set([referred]));
      expect(await asAffiliate.webhooks.transactionDeliveries({ transactionId: referred }).catch((e) => e.code)).toBe(
        'FORBIDDEN',
      );
    } finally {
      await asAffiliate.webhooks.delete({ endpointId: endpoint.id });
      await receiver.stop();
    }
  });
});

describe('the receiver example (client/webhook-receiver.ts)', () => {
  it('verifies real deliveries with the standardwebhooks package and prints each event once', async () => {
    const probe = await startReceiver();
    const { endpoint, secret } = await endpointFor(asAdmin, probe.url);
    await probe.stop();
    const example = spawnEntry('client/webhook-receiver.ts', { WEBHOOK_SECRET: secret, PORT: '0' }, 'pipe');
    const lines: Record<string, unknown>[] = [];
    example.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      for (const line of chunk.split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    });
    try {
      expect(await waitUntil(() => lines.some((l) => 'listening' in l))).toBe(true);
      const port = lines.find((l) => 'listening' in l)?.listening;
      await t.app.sql`update webhook_endpoints set url = ${`http://127.0.0.1:${port}/`} where id = ${endpoint.id}`;
      t.sims.RELAY.configure({ outcome: 'refund' });
      const id = (await executeSwap(t, ETH_TO_BTC, 'RELAY')).transaction.id;
      const events = () => lines.filter((l) => l.transactionId === id);
      expect(await waitUntil(() => events().some((l) => l.type === 'transaction.final'))).toBe(true);
      expect(events().map((e) => e.type)).toContain('transaction.created');
      expect(events().find((e) => e.type === 'transaction.final')).toMatchObject({
        status: expect.stringMatching(/REFUND|FAILED/),
      });

      const forged = await fetch(`http://127.0.0.1:${port}/`, {
        method: 'POST',
        headers: {
          'webhook-id': 'msg_forged',
          'webhook-timestamp': `${Math.floor(Date.now() / 1000)}`,
          'webhook-signature': 'v1,AAAA',
        },
        body: '{"type":"transaction.final"}',
      });
      expect(forged.status).toBe(401);
    } finally {
      example.kill('SIGTERM');
      await asAdmin.webhooks.delete({ endpointId: endpoint.id });
    }
  });
});

describe('SSRF guard (WEBHOOK_ALLOW_PRIVATE_TARGETS off)', () => {
  let guarded: AppContext;
  let asGuardedAdmin: Caller;
  beforeAll(async () => {
    guarded = createAppContext(parseConfig({ ...t.env, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' }));
    asGuardedAdmin = await callerFor(guarded, admin.headers);
  });
  afterAll(() => guarded?.close());

  it.each([
    ['127.0.0.1', false, undefined],
    ['10.1.2.3', false, undefined],
    ['172.16.0.1', false, undefined],
    ['192.168.1.1', false, undefined],
    ['169.254.169.254', false, undefined],
    ['100.64.0.1', false, undefined],
    ['100.100.100.200', false, undefined],
    ['0.0.0.0', false, undefined],
    ['::1', false, undefined],
    ['::', false, undefined],
    ['fe80::1', false, undefined],
    ['fd00:ec2::254', false, undefined],
    // IPv4-mapped: judged as the IPv4 address it carries.
    ['::ffff:127.0.0.1', false, '127.0.0.1'],
    ['::ffff:10.0.0.1', false, '10.0.0.1'],
    ['::ffff:a9fe:a9fe', false, '169.254.169.254'],
    ['::ffff:93.184.215.14', true, '93.184.215.14'],
    // IPv4-compatible (deprecated, never routed): refused whatever it carries.
    ['::127.0.0.1', false, '127.0.0.1'],
    ['::7f00:1', false, '127.0.0.1'],
    ['::a9fe:a9fe', false, '169.254.169.254'],
    ['::10.0.0.1', false, '10.0.0.1'],
    ['::93.184.215.14', false, '93.184.215.14'],
    // IPv4-translated (RFC 6145), NAT64 (well-known and local-use), 6to4, Teredo: refused.
    ['::ffff:0:7f00:1', false, '127.0.0.1'],
    ['64:ff9b::a9fe:a9fe', false, '169.254.169.254'],
    ['64:ff9b::127.0.0.1', false, '127.0.0.1'],
    ['64:ff9b::93.184.215.14', false, '93.184.215.14'],
    ['64:ff9b:1::a9fe:a9fe', false, undefined],
    ['2002:7f00:1::1', false, '127.0.0.1'],
    ['2002:a9fe:a9fe::1', false, '169.254.169.254'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', false, '127.0.0.1'],
    // Outside 2000::/3 or reserved inside it.
    ['100::1', false, undefined],
    ['2001:db8::1', false, undefined],
    ['fec0::1', false, undefined],
    ['93.184.215.14', true, undefined],
    ['2606:4700::1111', true, undefined],
  ] as const)('%s is public: %s (embeds %s)', (address, isPublic, embeds) => {
    expect(judgeAddress(address)).toEqual({ isPublic, ...(embeds ? { embeds } : {}) });
  });

  it('refuses private, loopback and plain-http URLs at creation', async () => {
    const refused = [
      'http://93.184.215.14/hooks',
      'https://127.0.0.1/hooks',
      'https://localhost/hooks',
      'https://10.0.0.7/hooks',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.1.1/',
      'https://[::1]/hooks',
      'https://[::ffff:7f00:1]/hooks',
      'https://[::127.0.0.1]:3000/',
      'https://[::a9fe:a9fe]/',
      'https://[64:ff9b::a9fe:a9fe]/',
      'https://[2002:a9fe:a9fe::1]/',
      'https://[fd00:ec2::254]/',
      'https://user:pass@93.184.215.14/',
      'not a url',
    ];
    for (const url of refused) {
      expect(await outcomeOf(asGuardedAdmin.webhooks.create({ url, scope: 'all' })), url).toBe('BAD_REQUEST');
    }
    const [row] = await guarded.sql`select count(*)::int as n from webhook_endpoints where url = any(${refused})`;
    expect(row?.n).toBe(0);
    await expect(asGuardedAdmin.webhooks.create({ url: 'https://[::127.0.0.1]:3000/' })).rejects.toThrow(
      '[::7f00:1] resolves to ::7f00:1, an IPv6 form of 127.0.0.1, which is not a public address',
    );
  });

  it('accepts a public https address', async () => {
    // Affiliate scope with no referral codes: it matches no swap, so nothing is ever sent off this machine.
    const { endpoint } = await asGuardedAdmin.webhooks.create({ url: 'https://93.184.215.14/hooks' });
    expect(endpoint).toMatchObject({ url: 'https://93.184.215.14/hooks', enabled: true });
    await asGuardedAdmin.webhooks.delete({ endpointId: endpoint.id });
  });

  it('checks again at delivery: an endpoint now pointing at a private address gets nothing', async () => {
    const receiver = await startReceiver();
    const { endpoint } = await endpointFor(asAdmin, receiver.url, 'affiliate');
    try {
      await t.app.sql`
        insert into webhook_messages (id, endpoint_id, transaction_id, event_type, digest, payload)
        values ('msg_guardedDelivery0000000', ${endpoint.id}, 'tx_none', 'transaction.created', 'x', '{}'::jsonb)`;
      const outcome = await deliverMessage(guarded, 'msg_guardedDelivery0000000', { lastAttempt: true });
      expect(outcome.delivered).toBe(false);
      expect(outcome.error).toMatch(/^refused: .*(https|not a public address)/);
      expect(receiver.requests).toHaveLength(0);
      const log = await asAdmin.webhooks.deliveries({ endpointId: endpoint.id });
      expect(log[0]).toMatchObject({ statusCode: null, messageState: 'failed' });
    } finally {
      await asAdmin.webhooks.delete({ endpointId: endpoint.id });
      await receiver.stop();
    }
  });
});

describe('who may manage which endpoints', () => {
  it('an affiliate cannot register for all swaps, nor see or touch anyone else’s endpoints', async () => {
    const affiliate = await signedInUser(t.app, 'affiliate');
    const asAffiliate = await callerFor(t.app, affiliate.headers);
    const other = await callerFor(t.app, (await signedInUser(t.app, 'affiliate')).headers);
    expect(await outcomeOf(asAffiliate.webhooks.create({ url: 'https://93.184.215.14/a', scope: 'all' }))).toBe(
      'FORBIDDEN',
    );
    // Affiliate scope, owners without referral codes: these public addresses are never sent anything.
    const adminOwned = await asAdmin.webhooks.create({ url: 'https://93.184.215.14/admin' });
    const othersOwned = await other.webhooks.create({ url: 'https://93.184.215.14/other' });
    try {
      expect(othersOwned.endpoint.scope).toBe('affiliate');
      expect(await asAffiliate.webhooks.list()).toEqual([]);
      expect((await asAdmin.webhooks.list()).map((e) => e.id)).toEqual(
        expect.arrayContaining([adminOwned.endpoint.id, othersOwned.endpoint.id]),
      );
      expect(JSON.stringify(await asAdmin.webhooks.list())).not.toContain('whsec_');
      for (const endpointId of [adminOwned.endpoint.id, othersOwned.endpoint.id]) {
        expect(await outcomeOf(asAffiliate.webhooks.delete({ endpointId }))).toBe('NOT_FOUND');
        expect(await outcomeOf(asAffiliate.webhooks.rotateSecret({ endpointId }))).toBe('NOT_FOUND');
        expect(await outcomeOf(asAffiliate.webhooks.enable({ endpointId }))).toBe('NOT_FOUND');
        expect(await outcomeOf(asAffiliate.webhooks.deliveries({ endpointId }))).toBe('NOT_FOUND');
      }
      const support = await callerFor(t.app, (await signedInUser(t.app, 'support')).headers);
      expect(await outcomeOf(support.webhooks.list())).toBe('FORBIDDEN');
      expect(await outcomeOf((await callerFor(t.app)).webhooks.list())).toBe('UNAUTHORIZED');
      expect(await outcomeOf(asAffiliate.webhooks.deliveries({ endpointId: 'nonsense' }))).toBe('BAD_REQUEST');
    } finally {
      await asAdmin.webhooks.delete({ endpointId: adminOwned.endpoint.id });
      await asAdmin.webhooks.delete({ endpointId: othersOwned.endpoint.id });
    }
  });
});
