import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/app';
import { insertTransactions } from '../../test/support/seed-transactions';
import type { AppContext } from '../context';
import { createRelayAdapter } from '../providers/relay/adapter';
import { RELAY_FAILURE_FINAL_AFTER_MS } from '../providers/relay/status';
import type { ResilientAdapter } from '../providers/resilience';
import { pollTransaction } from './poll';

const DAY = 24 * 3600_000;
let t: TestApp;
let relayUpstream: Server;
let relayUrl: string;

beforeAll(async () => {
  t = await startTestApp();
  // Relay's status body as it may come: `failure` with no `time` or `updatedAt` to date it by.
  relayUpstream = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'failure', details: '', inTxHashes: ['0xin'], txHashes: [] }));
  });
  await new Promise<void>((resolve) => relayUpstream.listen(0, '127.0.0.1', resolve));
  relayUrl = `http://127.0.0.1:${(relayUpstream.address() as AddressInfo).port}`;
});
afterAll(async () => {
  relayUpstream?.close();
  await t?.stop();
});

/** The app as a worker started at `now` would run it: a Relay adapter of its own (a restart), on that clock. */
function workerAt(now: number): AppContext {
  const relay = createRelayAdapter({
    config: { key: 'RELAY', enabled: true, baseUrl: relayUrl, apiKey: undefined, deadlineMs: 2500 },
    baseUrl: relayUrl,
    now: () => now,
  }) as unknown as ResilientAdapter;
  const providers = t.app.providers;
  return { ...t.app, providers: { ...providers, get: (key) => (key === 'RELAY' ? relay : providers.get(key)) } };
}

async function row(id: string) {
  const [tx] = await t.app.sql<{ status: string; substatus: string | null; tracking_context: Record<string, any> }[]>`
    select status, substatus, tracking_context from transactions where id = ${id}`;
  return tx;
}

describe("Relay's failure clock", () => {
  it('starts when tracking first sees the failure, not at the swap’s creation, and survives a restart', async () => {
    const [swap] = await insertTransactions(t.app, [
      {
        wallet: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        recipient: 'bc1qrecipient',
        createdAt: new Date(Date.now() - 2 * DAY),
      },
    ]);
    const id = swap?.id as string;
    await t.app.sql`update transactions set tracking_context = ${JSON.stringify({ requestId: '0xrequest' })}::jsonb
      where id = ${id}`;

    const firstSeen = Date.now();
    await pollTransaction(workerAt(firstSeen), id);
    const seen = await row(id);
    expect(seen).toMatchObject({ status: 'PENDING', substatus: 'REFUND_IN_PROGRESS' });
    const recorded = Date.parse(seen?.tracking_context.firstSeenAt?.failure);
    expect(recorded).toBeGreaterThanOrEqual(firstSeen - 60_000);

    // Another worker, restarted, just inside the window counted from that first sight: still a refund in progress.
    await pollTransaction(workerAt(recorded + RELAY_FAILURE_FINAL_AFTER_MS - 1), id);
    expect(await row(id)).toMatchObject({ status: 'PENDING', substatus: 'REFUND_IN_PROGRESS' });
    expect((await row(id))?.tracking_context.firstSeenAt.failure).toBe(seen?.tracking_context.firstSeenAt.failure);

    await pollTransaction(workerAt(recorded + RELAY_FAILURE_FINAL_AFTER_MS), id);
    expect(await row(id)).toMatchObject({ status: 'FAILED', substatus: 'FAILED' });
  });
});
