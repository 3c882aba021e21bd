import { describe, expect, it, vi } from 'vitest';
import { newWebhookMessageId } from '../server/ids';
import { sharedQueue } from '../server/tracking/queues';
import { fanOutChange } from '../server/webhooks/fan-out';
import type { TestApp } from './support/app';
import { withAppAndWorker } from './support/app-with-worker';
import { type Caller, callerFor, outcomeOf, signedInUser } from './support/dashboard';
import { ETH_TO_BTC } from './support/fixtures';
import { executeSwap } from './support/flows';
import { waitUntil } from './support/processes';
import { startReceiver } from './support/webhook-receivers';

vi.setConfig({ testTimeout: 45_000 });

let t: TestApp;
const worker = withAppAndWorker(
  {
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_REDELIVERIES_PER_MINUTE: '20',
    WEBHOOK_ENDPOINT_BACKOFF_MS: '100',
  },
  (app) => {
    t = app;
  },
);

/** Messages already delivered once, stored as the fan-out stores them; no job of theirs is left in the queue. */
async function deliveredMessages(endpointId: string, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, newWebhookMessageId);
  for (const [i, id] of ids.entries()) {
    await t.app.sql`
      insert into webhook_messages (id, endpoint_id, transaction_id, event_type, digest, payload, state, attempts)
      values (${id}, ${endpointId}, ${`tx_none${i}`}, 'transaction.created', ${`d${i}`},
        ${JSON.stringify({ type: 'transaction.created', data: { id: `tx_none${i}` } })}::jsonb, 'delivered', 1)`;
  }
  return ids;
}

const queuedJobsOf = async (messageId: string) => {
  const jobs = await sharedQueue(t.app, 'webhooks').getJobs(['waiting', 'delayed', 'active', 'prioritized']);
  return jobs.filter((job) => job.data.messageId === messageId);
};

async function adminWithEndpoint(url: string): Promise<{ caller: Caller; endpointId: string }> {
  const caller = await callerFor(t.app, (await signedInUser(t.app, 'admin')).headers);
  const { endpoint } = await caller.webhooks.create({ url, scope: 'affiliate' });
  return { caller, endpointId: endpoint.id };
}

describe('webhooks.redeliver is throttled', () => {
  it('queues a message once however many times it is asked for at once, and sends it once', async () => {
    const receiver = await startReceiver();
    const { caller, endpointId } = await adminWithEndpoint(receiver.url);
    const [messageId] = (await deliveredMessages(endpointId, 1)) as [string];

    const outcomes = await Promise.all(
      Array.from({ length: 200 }, () => outcomeOf(caller.webhooks.redeliver({ messageId }))),
    );
    expect(outcomes.filter((o) => o === 'OK')).toHaveLength(1);
    expect(new Set(outcomes.filter((o) => o !== 'OK'))).toEqual(new Set(['CONFLICT', 'TOO_MANY_REQUESTS']));
    expect(await queuedJobsOf(messageId)).toHaveLength(1);

    await worker.start();
    const sent = () => receiver.requests.filter((r) => r.headers['webhook-id'] === messageId);
    expect(await waitUntil(() => sent().length === 1)).toBe(true);
    expect(await waitUntil(async () => (await queuedJobsOf(messageId)).length === 0)).toBe(true);
    expect(sent()).toHaveLength(1);

    // Once that attempt is over, another user (the first is out of redeliveries for this minute) may ask again.
    const other = await callerFor(t.app, (await signedInUser(t.app, 'admin')).headers);
    expect(await outcomeOf(other.webhooks.redeliver({ messageId }))).toBe('OK');
    expect(await waitUntil(() => sent().length === 2)).toBe(true);
    await caller.webhooks.delete({ endpointId });
    await receiver.stop();
  });

  it('brings a message’s pending retry forward instead of queueing another', async () => {
    await worker.start();
    const receiver = await startReceiver((attempt) => (attempt === 1 ? 500 : 204));
    const { caller, endpointId } = await adminWithEndpoint(receiver.url);
    await caller.affiliates.createCode({ code: 'RETRYING' });
    const id = (await executeSwap(t, { ...ETH_TO_BTC, referralCode: 'RETRYING' }, 'RELAY')).transaction.id;
    const created = () =>
      receiver.requests.filter(
        (r) => JSON.parse(r.body).data.id === id && JSON.parse(r.body).type === 'transaction.created',
      );
    expect(await waitUntil(() => created().length === 1)).toBe(true);
    const messageId = String(created()[0]?.headers['webhook-id']);
    // Its first attempt failed: the retry waits in delayed, WEBHOOK_RETRY_BASE_DELAY_MS (3 min) away.
    const retry = await sharedQueue(t.app, 'webhooks').getJob(messageId);
    expect(await waitUntil(async () => (await retry?.getState()) === 'delayed')).toBe(true);

    // No worker while the calls come, so what they queued is counted before anything is sent.
    await worker.stop();
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => outcomeOf(caller.webhooks.redeliver({ messageId }))),
    );
    expect(outcomes.filter((o) => o === 'OK')).toHaveLength(1);
    expect((await queuedJobsOf(messageId)).map((job) => job.id)).toEqual([messageId]);
    expect(await retry?.getState()).toBe('waiting');
    await worker.start();
    expect(await waitUntil(() => created().length === 2)).toBe(true);
    expect(created()[1]?.headers['webhook-id']).toBe(messageId);
    expect(await waitUntil(async () => (await queuedJobsOf(messageId)).length === 0)).toBe(true);
    expect(created()).toHaveLength(2);
    await caller.webhooks.delete({ endpointId });
    await receiver.stop();
  });

  it('refuses, in plain words, a message that is about to be sent', async () => {
    await worker.stop();
    const receiver = await startReceiver();
    const { caller, endpointId } = await adminWithEndpoint(receiver.url);
    await caller.affiliates.createCode({ code: 'REDELIVERED' });
    const id = (await executeSwap(t, { ...ETH_TO_BTC, referralCode: 'REDELIVERED' }, 'RELAY')).transaction.id;
    await fanOutChange(t.app, { transactionId: id, created: true });
    const [message] = await t.app.sql<{ id: string }[]>`
      select id from webhook_messages where endpoint_id = ${endpointId} and transaction_id = ${id}`;
    if (!message) throw new Error('no message stored');
    await expect(caller.webhooks.redeliver({ messageId: message.id })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This message is already being sent, or about to be. Redeliver it once that attempt has finished.',
    });
    expect(await queuedJobsOf(message.id)).toHaveLength(1);
    await caller.webhooks.delete({ endpointId });
    await receiver.stop();
  });

  it('allows each user WEBHOOK_REDELIVERIES_PER_MINUTE redeliveries, then says when to try again', async () => {
    const receiver = await startReceiver();
    const { caller, endpointId } = await adminWithEndpoint(receiver.url);
    const messages = await deliveredMessages(endpointId, 21);
    const outcomes: string[] = [];
    for (const messageId of messages.slice(0, 20))
      outcomes.push(await outcomeOf(caller.webhooks.redeliver({ messageId })));
    expect(outcomes).toEqual(Array(20).fill('OK'));
    const refused = caller.webhooks.redeliver({ messageId: messages[20] as string });
    await expect(refused).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    await expect(refused).rejects.toThrow(
      /^You have asked for 20 redeliveries in the last minute, the most allowed\. Try again in \d+ s\.$/,
    );
    expect(await queuedJobsOf(messages[20] as string)).toHaveLength(0);

    const other = await callerFor(t.app, (await signedInUser(t.app, 'admin')).headers);
    expect(await outcomeOf(other.webhooks.redeliver({ messageId: messages[20] as string }))).toBe('OK');
    await caller.webhooks.delete({ endpointId });
    await receiver.stop();
  });
});
