import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { expectLegacyError, expectV1Error } from './support/assertions';
import { BTC_TO_ETH, ETH_TO_BTC, WALLETS } from './support/fixtures';
import { executeSwap } from './support/flows';
import { insertTransactions } from './support/seed-transactions';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

const UNLISTED_TOKEN = '0x1111111111111111111111111111111111111111';

describe('an unknown chain or asset is the only problem reported', () => {
  it.each([
    ['srcChain', { ...ETH_TO_BTC, srcChain: 'nochain' }],
    ['srcAddress', { ...ETH_TO_BTC, srcAddress: UNLISTED_TOKEN }],
  ])('v1 quote and lock with an unknown %s do not also call the amount too large', async (field, body) => {
    for (const path of ['/api/v1/quote', '/api/v1/quote/lock']) {
      const res = await t.post(path, { ...body, provider: 'RELAY' });
      expectV1Error(res, 400, 'VALIDATION_ERROR', field);
      expect(res.body.error.details.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
  });

  it('the legacy quote and lock name only the unknown chain', async () => {
    for (const path of ['/api/quote', '/api/quote/lock']) {
      const res = await t.post(path, { ...ETH_TO_BTC, srcChain: 'nochain', provider: 'RELAY' });
      expectLegacyError(res, 400, 'VALIDATION_ERROR');
      expect(res.body.error.message).not.toMatch(/amount/);
    }
  });

  it('still reports an amount that is wrong whatever the asset', async () => {
    const res = await t.post('/api/v1/quote', { ...ETH_TO_BTC, srcChain: 'nochain', amount: '0' });
    expect(res.body.error.details.errors).toEqual([
      expect.objectContaining({ field: 'srcChain' }),
      { code: 'INVALID_AMOUNT', field: 'amount', message: 'amount must be greater than zero' },
    ]);
  });
});

describe('MISSING_LOCK_ID says the lock id is missing', () => {
  it.each([{}, { lockId: '  ' }])('v1 execute with %j', async (body) => {
    const res = await t.post('/api/v1/quote/execute', body);
    expectV1Error(res, 400, 'MISSING_LOCK_ID', 'lockId');
    expect(res.body.error.message).toMatch(/lockId is missing/);
  });

  it.each([{}, { quoteId: '' }])('legacy execute with %j', async (body) => {
    const res = await t.post('/api/quote/execute', body);
    expectLegacyError(res, 400, 'MISSING_LOCK_ID');
    expect(res.body.error.message).toMatch(/quoteId is missing/);
  });
});

describe('track refuses a malformed hash', () => {
  it.each(['SUCCESS', 'FAILED', 'REFUND', 'PENDING'] as const)('on a %s transaction', async (status) => {
    const [tx] = await insertTransactions(t.app, [
      { status, wallet: WALLETS.evm, recipient: WALLETS.bitcoin, createdAt: new Date() },
    ]);
    const res = await t.post('/api/v1/transaction/track', { transactionId: tx?.id, txHash: 'not-a-hash' });
    expectV1Error(res, 400, 'VALIDATION_ERROR', 'txHash');
  });
});

describe('one type for a fee in USD and one convention for a hash not known yet', () => {
  it('fee.usd is a number or null on quote, lock, execute, status and history', async () => {
    const isUsd = (value: unknown) => value === null || typeof value === 'number';
    const quoted = await t.post('/api/v1/quote', ETH_TO_BTC);
    expect(quoted.body.data.some((r: any) => typeof r.fee.usd === 'number')).toBe(true);
    for (const route of quoted.body.data) {
      expect(isUsd(route.fee.usd), JSON.stringify(route.fee)).toBe(true);
      expect(route.feeBreakdown.total.usd).toBe(route.fee.usd);
    }
    const legacy = await t.post('/api/quote', ETH_TO_BTC);
    for (const element of legacy.body) expect(isUsd(element.fee.usd)).toBe(true);

    const locked = await t.post('/api/v1/quote/lock', { ...BTC_TO_ETH, provider: 'THORCHAIN' });
    expect(typeof locked.body.data.fee.usd).toBe('number');
    const executed = await t.post('/api/v1/quote/execute', { lockId: locked.body.data.lockId });
    const { fee, quote, transaction } = executed.body.data;
    expect(typeof fee.usd).toBe('number');
    expect(typeof quote.fee.usd).toBe('number');
    expect(typeof quote.feeBreakdown.total.usd).toBe('number');

    const status = await t.json(`/api/v1/transaction/status?transactionId=${transaction.id}`);
    expect(status.body.data.transaction.fee.usd).toBe(fee.usd);
    const history = await t.json(`/api/v1/transaction/history?transactionId=${transaction.id}`);
    expect(history.body.data[0].fee.usd).toBe(fee.usd);
  });

  it('hash, inboundHash and outboundHash are empty strings until known, on status, history and track', async () => {
    const { transaction } = await executeSwap(t, BTC_TO_ETH, 'THORCHAIN');
    const status = (await t.json(`/api/v1/transaction/status?transactionId=${transaction.id}`)).body.data.transaction;
    expect(status).toMatchObject({ hash: '', inboundHash: '', outboundHash: '' });
    const history = (await t.json(`/api/v1/transaction/history?transactionId=${transaction.id}`)).body.data[0];
    expect(history).toMatchObject({ hash: '', inboundHash: '', outboundHash: '' });
    const legacy = await t.json(`/api/transaction/history?addresses=${encodeURIComponent(WALLETS.bitcoin)}`);
    const item = legacy.body.items.find((i: { id: string }) => i.id === transaction.id);
    expect(item).toMatchObject({ hash: '', inboundHash: '', outboundHash: '' });
    const tracked = await t.post('/api/v1/transaction/track', { transactionId: transaction.id });
    expect(tracked.body.data.transaction).toMatchObject({ hash: '', inboundHash: '' });
  });
});
