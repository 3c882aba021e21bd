import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fanOutChange } from '../server/webhooks/fan-out';
import { startWorkerRuntime, type WorkerRuntime } from '../workers/runtime';
import { startTestApp, type TestApp } from './support/app';
import { type Caller, callerFor, outcomeOf, type SignedInUser, signedInUser, signIn } from './support/dashboard';
import { ETH_TO_BTC } from './support/fixtures';
import { executeSwap } from './support/flows';
import { waitUntil } from './support/processes';
import { startReceiver } from './support/webhook-receivers';

vi.setConfig({ testTimeout: 45_000 });

let t: TestApp;
let worker: WorkerRuntime | undefined;
let admin: SignedInUser;
let asAdmin: Caller;

beforeAll(async () => {
  t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_BASE_DELAY_MS: '50' });
  admin = await signedInUser(t.app, 'admin');
  asAdmin = await callerFor(t.app, admin.headers);
});
afterAll(async () => {
  await worker?.close();
  await t?.stop();
});

const startWorker = async () => {
  worker ??= await startWorkerRuntime(t.app.config);
};

const messagesOf = (endpointId: string, transactionId: string) =>
  t.app.sql<{ id: string; state: string }[]>`
    select id, state from webhook_messages where endpoint_id = ${endpointId} and transaction_id = ${transactionId}`;

const listedByAdmin = async (endpointId: string) => (await asAdmin.webhooks.list()).find((e) => e.id === endpointId);

describe('an endpoint whose owner loses the right to receive it', () => {
  it('a deactivated admin’s all-swaps endpoint sends nothing of what was already queued for it', async () => {
    const owner = await signedInUser(t.app, 'admin');
    const receiver = await startReceiver();
    const witness = await startReceiver();
    const asOwner = await callerFor(t.app, owner.headers);
    const { endpoint } = await asOwner.webhooks.create({ url: receiver.url, scope: 'all' });
    const watched = await asAdmin.webhooks.create({ url: witness.url, scope: 'all' });
    try {
      // No worker yet: the fan-out stores the messages and queues their deliveries, as it would while
      // the workers are busy, and only then is the owner deactivated.
      const id = (await executeSwap(t, ETH_TO_BTC, 'RELAY')).transaction.id;
      await fanOutChange(t.app, { transactionId: id, created: true });
      const [queued] = await messagesOf(endpoint.id, id);
      expect(queued?.state).toBe('pending');
      await asAdmin.users.deactivate({ userId: owner.id });

      await startWorker();
      expect(await waitUntil(() => witness.events().some((e) => e.data.id === id))).toBe(true);
      expect(await waitUntil(async () => (await messagesOf(endpoint.id, id))[0]?.state === 'failed')).toBe(true);
      expect(receiver.requests).toEqual([]);
      const [attempts] = await t.app
        .sql`select count(*)::int as n from webhook_deliveries where endpoint_id = ${endpoint.id}`;
      expect(attempts?.n).toBe(0);

      expect(await listedByAdmin(endpoint.id)).toMatchObject({
        enabled: false,
        canEnable: false,
        disabledReason: `Its owner, ${owner.email}, has been deactivated. Nothing is sent to it unless they are reactivated.`,
      });
      await asAdmin.users.reactivate({ userId: owner.id });
      expect(await listedByAdmin(endpoint.id)).toMatchObject({ enabled: true, disabledReason: null });
    } finally {
      await asAdmin.webhooks.delete({ endpointId: endpoint.id });
      await asAdmin.webhooks.delete({ endpointId: watched.endpoint.id });
      await receiver.stop();
      await witness.stop();
    }
  });

  it('a demoted admin can no longer see or manage their all-swaps endpoint, and it gets no new swap', async () => {
    await startWorker();
    const former = await signedInUser(t.app, 'admin');
    const asFormer = await callerFor(t.app, former.headers);
    const receiver = await startReceiver();
    const witness = await startReceiver();
    const { endpoint } = await asFormer.webhooks.create({ url: receiver.url, scope: 'all' });
    const watched = await asAdmin.webhooks.create({ url: witness.url, scope: 'all' });
    try {
      const before = (await executeSwap(t, ETH_TO_BTC, 'RELAY')).transaction.id;
      expect(await waitUntil(() => receiver.events().some((e) => e.data.id === before))).toBe(true);
      const messageId = String(receiver.requests[0]?.headers['webhook-id']);

      await asAdmin.users.setRole({ userId: former.id, role: 'affiliate' });
      // Their old session ended with the change; the dashboard context they held, and a new sign-in as an affiliate.
      const asAffiliateNow = await callerFor(t.app, await signIn(t.app, former.email));
      for (const caller of [asFormer, asAffiliateNow]) {
        expect(await caller.webhooks.list()).toEqual([]);
        const endpointId = endpoint.id;
        expect(await outcomeOf(caller.webhooks.rotateSecret({ endpointId }))).toBe('NOT_FOUND');
        expect(await outcomeOf(caller.webhooks.deliveries({ endpointId }))).toBe('NOT_FOUND');
        expect(await outcomeOf(caller.webhooks.enable({ endpointId }))).toBe('NOT_FOUND');
        expect(await outcomeOf(caller.webhooks.delete({ endpointId }))).toBe('NOT_FOUND');
        expect(await outcomeOf(caller.webhooks.redeliver({ messageId }))).toBe('NOT_FOUND');
        expect(await outcomeOf(caller.webhooks.create({ url: receiver.url, scope: 'all' }))).toBe('FORBIDDEN');
      }

      const reason = `Its owner, ${former.email}, is no longer an admin, and only admins may receive every swap. Nothing is sent to it.`;
      expect(await listedByAdmin(endpoint.id)).toMatchObject({
        enabled: false,
        canEnable: false,
        disabledReason: reason,
      });
      await expect(asAdmin.webhooks.enable({ endpointId: endpoint.id })).rejects.toMatchObject({
        code: 'CONFLICT',
        message: reason,
      });
      await expect(asAdmin.webhooks.redeliver({ messageId })).rejects.toMatchObject({
        code: 'CONFLICT',
        message: reason,
      });

      const after = (await executeSwap(t, ETH_TO_BTC, 'RELAY')).transaction.id;
      expect(await waitUntil(() => witness.events().some((e) => e.data.id === after))).toBe(true);
      expect(await messagesOf(endpoint.id, after)).toEqual([]);
      expect(receiver.events().filter((e) => e.data.id === after)).toEqual([]);
    } finally {
      await asAdmin.webhooks.delete({ endpointId: endpoint.id });
      await asAdmin.webhooks.delete({ endpointId: watched.endpoint.id });
      await receiver.stop();
      await witness.stop();
    }
  });

  it('a deactivated user’s dashboard context can no longer read or change anything', async () => {
    const affiliate = await signedInUser(t.app, 'affiliate');
    const asAffiliate = await callerFor(t.app, affiliate.headers);
    const { endpoint } = await asAffiliate.webhooks.create({ url: 'https://93.184.215.14/hooks' });
    try {
      await asAdmin.users.deactivate({ userId: affiliate.id });
      expect(await outcomeOf(asAffiliate.webhooks.list())).toBe('FORBIDDEN');
      expect(await outcomeOf(asAffiliate.webhooks.rotateSecret({ endpointId: endpoint.id }))).toBe('FORBIDDEN');
      expect(await outcomeOf(asAffiliate.webhooks.deliveries({ endpointId: endpoint.id }))).toBe('FORBIDDEN');
      expect(await outcomeOf(asAffiliate.webhooks.create({ url: 'https://93.184.215.14/other' }))).toBe('FORBIDDEN');
    } finally {
      await asAdmin.webhooks.delete({ endpointId: endpoint.id });
    }
  });
});
