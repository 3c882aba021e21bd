import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets } from '../server/transactions/redact';
import { startTestApp, type TestApp } from './support/app';
import { type Caller, callerFor, outcomeOf, signedInUser } from './support/dashboard';
import { ETH_TO_BTC, USDC_ETH_TO_ARB, WALLETS } from './support/fixtures';
import { executeSwap, randomHex } from './support/flows';
import { registerReferralCodes } from './support/seed-transactions';

let t: TestApp;
let support: Caller;
let relayTx: string;
let lifiTx: string;
let lifiLock: string;
const sourceHash = `0x${randomHex()}`;

beforeAll(async () => {
  t = await startTestApp();
  support = await callerFor(t.app, (await signedInUser(t.app, 'support')).headers);
  t.sims.RELAY.configure({ settleAfterPolls: 0, outcome: 'success' });
  await registerReferralCodes(t.app, ['desk-7']);
  relayTx = (await executeSwap(t, { ...ETH_TO_BTC, referralCode: 'desk-7' }, 'RELAY')).transaction.id;
  const lifi = await executeSwap(t, USDC_ETH_TO_ARB, 'LIFI');
  lifiTx = lifi.transaction.id;
  lifiLock = lifi.lockId;
  await t.post('/api/v1/transaction/track', { transactionId: lifiTx, txHash: sourceHash });
});
afterAll(async () => {
  await t?.stop();
});

const idsOf = (page: { items: { id: string }[] }) => page.items.map((i) => i.id).sort();

describe('transactions.search', () => {
  it('one box finds a transaction by id, lock id, source hash in any case, and wallet', async () => {
    expect(idsOf(await support.transactions.search({ query: lifiTx }))).toEqual([lifiTx]);
    expect(idsOf(await support.transactions.search({ query: lifiLock }))).toEqual([lifiTx]);
    expect(idsOf(await support.transactions.search({ query: sourceHash.toUpperCase().replace('0X', '0x') }))).toEqual([
      lifiTx,
    ]);
    expect(idsOf(await support.transactions.search({ query: WALLETS.bitcoin }))).toEqual([relayTx]);
    expect(idsOf(await support.transactions.search({ query: WALLETS.evm.toLowerCase() }))).toEqual(
      [relayTx, lifiTx].sort(),
    );
    expect((await support.transactions.search({ query: `0x${randomHex()}` })).total).toBe(0);
  });

  it('finds a settled swap by its outbound hash after a poll', async () => {
    const polled = await support.transactions.pollNow({ id: relayTx });
    expect(polled.status).toBe('SUCCESS');
    const detail = await support.transactions.detail({ id: relayTx });
    const outbound = detail.hashes.find((h) => h.label === 'Outbound')?.value;
    expect(outbound).toBeTruthy();
    expect(idsOf(await support.transactions.search({ query: outbound ?? '' }))).toEqual([relayTx]);
  });

  it('filters by status, provider, chain, referral code, stale and date range', async () => {
    expect(idsOf(await support.transactions.search({ provider: 'lifi' }))).toEqual([lifiTx]);
    expect(idsOf(await support.transactions.search({ chain: 'bitcoin' }))).toEqual([relayTx]);
    expect(idsOf(await support.transactions.search({ chain: 'arbitrum' }))).toEqual([lifiTx]);
    expect(idsOf(await support.transactions.search({ referralCode: 'desk-7' }))).toEqual([relayTx]);
    expect((await support.transactions.search({ stale: true })).total).toBe(0);
    expect((await support.transactions.search({ stale: false })).total).toBe(2);
    const future = new Date(Date.now() + 3600_000);
    expect((await support.transactions.search({ from: future })).total).toBe(0);
    expect((await support.transactions.search({ to: future, from: new Date(0) })).total).toBe(2);
    expect(await outcomeOf(support.transactions.search({ from: future, to: new Date(0) }))).toBe('BAD_REQUEST');
    await t.app.sql`update transactions set stale = true where id = ${lifiTx}`;
    expect(idsOf(await support.transactions.search({ stale: true, statuses: ['PENDING'] }))).toEqual([lifiTx]);
  });

  it('sorts and paginates on the server with an exact total', async () => {
    const first = await support.transactions.search({
      perPage: 1,
      page: 1,
      sort: { field: 'amountUsd', direction: 'asc' },
    });
    const second = await support.transactions.search({
      perPage: 1,
      page: 2,
      sort: { field: 'amountUsd', direction: 'asc' },
    });
    expect(first.total).toBe(2);
    expect(first.items).toHaveLength(1);
    expect(second.items).toHaveLength(1);
    const [a, b] = [first.items[0]?.amountUsd ?? 0, second.items[0]?.amountUsd ?? 0];
    expect(a).toBeLessThanOrEqual(b);
    const desc = await support.transactions.search({ sort: { field: 'amountUsd', direction: 'desc' } });
    expect(desc.items.map((i) => i.id)).toEqual([second.items[0]?.id, first.items[0]?.id]);
  });

  it('rejects oversized input', async () => {
    expect(await outcomeOf(support.transactions.search({ perPage: 1000 }))).toBe('BAD_REQUEST');
    expect(await outcomeOf(support.transactions.search({ query: 'x'.repeat(300) }))).toBe('BAD_REQUEST');
  });
});

describe('transactions.detail', () => {
  it('shows assets, explorer links from the chain template, tracking state and the full timeline', async () => {
    const detail = await support.transactions.detail({ id: lifiTx });
    expect(detail.transaction).toMatchObject({
      id: lifiTx,
      provider: 'LIFI',
      srcChain: 'ethereum',
      dstChain: 'arbitrum',
    });
    expect(detail.transaction.srcAsset.symbol).toBe('USDC');
    const source = detail.hashes.find((h) => h.label === 'Source');
    expect(source?.value).toBe(sourceHash);
    expect(source?.url).toContain(sourceHash);
    expect(source?.url).toMatch(/^https:\/\//);
    expect(detail.tracking).toHaveProperty('pollAttempts');
    expect(detail.tracking.pollable).toBe(true);
    expect(detail.events.map((e) => e.type)).toEqual(expect.arrayContaining(['created', 'track']));
    expect(detail.events[0]?.createdAt).toBeInstanceOf(Date);
  });

  it('redacts secret-looking keys in the provider context', async () => {
    await t.app.sql`
      update transactions
      set tracking_context = tracking_context || '{"apiKey":"sk-live-1","nested":{"authToken":"t0k","requestId":"r1"}}'::jsonb
      where id = ${lifiTx}`;
    const detail = await support.transactions.detail({ id: lifiTx });
    const context = detail.providerContext.trackingContext as Record<string, any>;
    expect(context.apiKey).toBe(REDACTED);
    expect(context.nested).toEqual({ authToken: REDACTED, requestId: 'r1' });
    expect(JSON.stringify(detail)).not.toContain('sk-live-1');
  });

  it('an unknown transaction is NOT_FOUND', async () => {
    expect(await outcomeOf(support.transactions.detail({ id: 'tx_doesnotexist' }))).toBe('NOT_FOUND');
  });
});

describe('transactions.pollNow', () => {
  it('polls synchronously, returns the new status and leaves an audit event naming who asked', async () => {
    t.sims.LIFI.configure({ settleAfterPolls: 0, outcome: 'success' });
    const result = await support.transactions.pollNow({ id: lifiTx });
    expect(result.status).toBe('SUCCESS');
    const detail = await support.transactions.detail({ id: lifiTx });
    const types = detail.events.map((e) => e.type);
    expect(types).toContain('manual_poll');
    expect(types.indexOf('manual_poll')).toBeLessThan(types.lastIndexOf('status_changed'));
    expect(detail.events.find((e) => e.type === 'manual_poll')?.message).toMatch(/support-/);
  });

  it('on an unknown transaction is NOT_FOUND', async () => {
    expect(await outcomeOf(support.transactions.pollNow({ id: 'tx_doesnotexist' }))).toBe('NOT_FOUND');
  });
});

describe('redactSecrets', () => {
  it('replaces values under key, secret, token, signature and auth keys at any depth, arrays included', () => {
    expect(
      redactSecrets({
        API_KEY: 'a',
        clientSecret: 'b',
        items: [{ sessionToken: 'c', value: 1 }],
        signature: 'd',
        Authorization: 'e',
        depositAddress: 'kept',
      }),
    ).toEqual({
      API_KEY: REDACTED,
      clientSecret: REDACTED,
      items: [{ sessionToken: REDACTED, value: 1 }],
      signature: REDACTED,
      Authorization: REDACTED,
      depositAddress: 'kept',
    });
  });
});
