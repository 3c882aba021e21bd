import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { expectV1Error, expectV1Headers, firstRow } from './support/assertions';
import { BTC_TO_ETH, ETH_TO_BTC, keyPaths, USDC_ETH_TO_ARB } from './support/fixtures';
import { registerReferralCodes } from './support/seed-transactions';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ PROVIDER_DEADLINE_MS: '1000', EXECUTE_DEADLINE_MS: '1500', LOCK_TTL_MS: '60000' });
  await registerReferralCodes(t.app, ['partner-1', 'at-lock', 'from-lock', 'from-execute']);
});
afterAll(() => t?.stop());
beforeEach(() => {
  for (const sim of Object.values(t.sims)) sim.reset();
});

const lock = (body: unknown) => t.post('/api/v1/quote/lock', body);
const execute = (body: unknown) => t.post('/api/v1/quote/execute', body);

async function lockOk(body: Record<string, unknown>) {
  const res = await lock(body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

describe('POST /api/v1/quote/lock', () => {
  it('locks the provider best route with consistent expiry fields and no execution payload', async () => {
    const before = Date.now();
    const res = await lock({ ...ETH_TO_BTC, provider: 'CHAINFLIP', referralCode: 'partner-1' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectV1Headers(res.headers);
    const data = res.body.data;
    expect(data).toMatchObject({
      provider: 'CHAINFLIP',
      routeId: expect.any(String),
      lockId: expect.stringMatching(/^lk_/),
    });
    for (const field of ['src', 'dst', 'fee', 'feeBreakdown']) expect(data).toHaveProperty(field);
    const expiresAt = Date.parse(data.expiresAt);
    expect(data.ttlMs).toBeGreaterThan(5000);
    expect(data.ttlMs).toBeLessThanOrEqual(60_000);
    expect(Math.abs(expiresAt - (before + data.ttlMs))).toBeLessThan(2000);
    expect(keyPaths(res.body).filter((p) => /exec|providerQuote|calldata/i.test(p))).toEqual([]);

    const row = await firstRow(t.app.sql`select * from locks where id = ${data.lockId}`);
    expect(row).toMatchObject({
      provider: 'CHAINFLIP',
      src_chain: 'ethereum',
      dst_chain: 'bitcoin',
      amount: '1.5',
      slippage_bps: 100,
      depositor: ETH_TO_BTC.depositor,
      recipient: ETH_TO_BTC.recipient,
      referral_code: 'partner-1',
      state: 'locked',
    });
  });

  it('locks the route named by routeId', async () => {
    const quoted = await t.post('/api/v1/quote', ETH_TO_BTC);
    const thor = quoted.body.data.filter((r: any) => r.provider === 'THORCHAIN');
    expect(thor.length).toBeGreaterThan(0);
    const chosen = thor[thor.length - 1];
    const data = await lockOk({ ...ETH_TO_BTC, provider: 'THORCHAIN', routeId: chosen.routeId });
    expect(data.routeId).toBe(chosen.routeId);
  });

  it('answers MISSING_PROVIDER without a provider', async () => {
    expectV1Error(await lock(ETH_TO_BTC), 400, 'MISSING_PROVIDER', 'provider');
    expectV1Error(await lock({ ...ETH_TO_BTC, provider: '' }), 400, 'MISSING_PROVIDER', 'provider');
  });

  it('requires depositor and recipient', async () => {
    const { depositor: _d, recipient: _r, ...rest } = ETH_TO_BTC;
    const res = await lock({ ...rest, provider: 'THORCHAIN' });
    expectV1Error(res, 400, 'VALIDATION_ERROR', 'depositor');
    expect(res.body.error.details.errors.map((e: any) => e.field)).toEqual(['depositor', 'recipient']);
  });

  it('runs the quote validation too, all problems together', async () => {
    const res = await lock({ ...ETH_TO_BTC, amount: '0', slippage: 10_001, provider: 'THORCHAIN' });
    expectV1Error(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.details.errors.map((e: any) => e.code).sort()).toEqual([
      'INVALID_AMOUNT',
      'INVALID_SLIPPAGE',
    ]);
  });

  it('refuses an unknown provider on its field and a bad referral code', async () => {
    expectV1Error(await lock({ ...ETH_TO_BTC, provider: 'NOPE' }), 400, 'VALIDATION_ERROR', 'provider');
    expectV1Error(
      await lock({ ...ETH_TO_BTC, provider: 'RELAY', referralCode: 'has spaces' }),
      400,
      'VALIDATION_ERROR',
      'referralCode',
    );
  });

  it('answers 409 PROVIDER_UNAVAILABLE for an excluded, inactive or non-serving provider, or a vanished route', async () => {
    expectV1Error(await lock({ ...ETH_TO_BTC, provider: 'RELAY', exclude: ['RELAY'] }), 409, 'PROVIDER_UNAVAILABLE');
    expectV1Error(await lock({ ...USDC_ETH_TO_ARB, provider: 'THORCHAIN' }), 409, 'PROVIDER_UNAVAILABLE');
    expectV1Error(
      await lock({ ...ETH_TO_BTC, provider: 'RELAY', routeId: 'relay:nothing' }),
      409,
      'PROVIDER_UNAVAILABLE',
    );
    t.sims.LIFI.configure({ faults: { quote: 'noroute' } });
    expectV1Error(await lock({ ...ETH_TO_BTC, provider: 'LIFI' }), 409, 'PROVIDER_UNAVAILABLE');
    await t.app.sql`update sources set active = false where key = 'CHAINFLIP'`;
    try {
      expectV1Error(await lock({ ...ETH_TO_BTC, provider: 'CHAINFLIP' }), 409, 'PROVIDER_UNAVAILABLE');
    } finally {
      await t.app.sql`update sources set active = true where key = 'CHAINFLIP'`;
    }
  });

  it('answers 503 PROVIDER_UNAVAILABLE when the provider is down or too slow', async () => {
    t.sims.RELAY.configure({ faults: { quote: 'error5xx' } });
    expectV1Error(await lock({ ...ETH_TO_BTC, provider: 'RELAY' }), 503, 'PROVIDER_UNAVAILABLE');
    t.sims.RELAY.configure({ faults: { quote: 'hang' } });
    expectV1Error(await lock({ ...ETH_TO_BTC, provider: 'RELAY' }), 503, 'PROVIDER_UNAVAILABLE');
  });
});

describe('POST /api/v1/quote/execute', () => {
  it('records a PENDING transaction and returns the spec result for a deposit channel', async () => {
    const locked = await lockOk({ ...BTC_TO_ETH, provider: 'CHAINFLIP', referralCode: 'at-lock' });
    const res = await execute({ lockId: locked.lockId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectV1Headers(res.headers);
    const data = res.body.data;
    expect(data).toMatchObject({
      provider: 'CHAINFLIP',
      lockId: locked.lockId,
      transaction: { id: expect.stringMatching(/^tx_/), status: 'PENDING' },
    });
    expect(data.providerResult.channelId).toMatch(/^\d+-[A-Za-z]+-\d+$/);
    expect(data.providerResult.depositAddress).toBeTruthy();
    expect(data.quote).toMatchObject({ src: locked.src, steps: locked.steps, estimatedTime: locked.estimatedTime });
    expect(data.fee).toBeTypeOf('object');
    expect(data.exec.meta).toMatchObject({
      executionMode: 'deposit-channel',
      channelId: data.providerResult.channelId,
    });

    const tx = await firstRow(t.app.sql`select * from transactions where id = ${data.transaction.id}`);
    expect(tx).toMatchObject({
      status: 'PENDING',
      provider: 'CHAINFLIP',
      lock_id: locked.lockId,
      hash: '',
      inbound_hash: '',
      outbound_hash: null,
      wallet_address: BTC_TO_ETH.depositor,
      recipient_wallet_address: BTC_TO_ETH.recipient,
      src_amount: '0.25',
      referral_code: 'at-lock',
    });
    expect(tx.src_asset).toMatchObject({ symbol: 'BTC', contract: null, chain: 'bitcoin' });
    expect(tx.dst_asset).toMatchObject({ symbol: 'ETH', chain: 'ethereum' });
    expect(tx.tracking_context.channelId).toBe(data.providerResult.channelId);
    const events = await t.app.sql`select type from transaction_events where transaction_id = ${tx.id}`;
    expect(events.map((e) => e.type)).toEqual(['created']);
    const lockRow = await firstRow(t.app.sql`select state, transaction_id from locks where id = ${locked.lockId}`);
    expect(lockRow).toEqual({ state: 'used', transaction_id: tx.id });
  });

  it('returns deposit address and memo for a THORChain UTXO source', async () => {
    const locked = await lockOk({ ...BTC_TO_ETH, provider: 'THORCHAIN' });
    const { body } = await execute({ lockId: locked.lockId });
    expect(body.data.providerResult).toMatchObject({
      depositAddress: expect.any(String),
      depositMemo: expect.stringMatching(/^=:/),
    });
    expect(body.data.exec).toMatchObject({
      providerTarget: body.data.providerResult.depositAddress,
      srcToken: 'native',
    });
  });

  it.each(['RELAY', 'LIFI'])(
    'returns wallet calldata with the approval for an ERC-20 source through %s',
    async (provider) => {
      const locked = await lockOk({ ...USDC_ETH_TO_ARB, provider });
      const { status, body } = await execute({ lockId: locked.lockId });
      expect(status, JSON.stringify(body)).toBe(200);
      const exec = body.data.exec;
      expect(exec).toMatchObject({
        chainId: 1,
        providerTarget: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
        providerCalldata: expect.stringMatching(/^0x[0-9a-fA-F]+$/),
        srcToken: USDC_ETH_TO_ARB.srcAddress,
        srcAmount: '2500000000',
        approvalTarget: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
        approvalAmount: expect.any(String),
      });
      expect(exec.approvalToken.toLowerCase()).toBe(USDC_ETH_TO_ARB.srcAddress.toLowerCase());
      expect(exec.meta.walletExecution).toBe(true);
    },
  );

  it('answers MISSING_LOCK_ID without a lockId', async () => {
    expectV1Error(await execute({}), 400, 'MISSING_LOCK_ID', 'lockId');
    expectV1Error(await execute({ lockId: '' }), 400, 'MISSING_LOCK_ID', 'lockId');
  });

  it('answers 404 for an unknown lock', async () => {
    expectV1Error(await execute({ lockId: 'lk_0000000000000000000000' }), 404, 'NOT_FOUND');
    expectV1Error(await execute({ lockId: 'not-a-lock' }), 404, 'NOT_FOUND');
  });

  it('answers 409 QUOTE_EXPIRED for an expired lock and for a used one', async () => {
    const expired = await lockOk({ ...ETH_TO_BTC, provider: 'RELAY' });
    await t.app.sql`update locks set expires_at = now() - interval '1 second' where id = ${expired.lockId}`;
    expectV1Error(await execute({ lockId: expired.lockId }), 409, 'QUOTE_EXPIRED');
    const used = await lockOk({ ...ETH_TO_BTC, provider: 'RELAY' });
    expect((await execute({ lockId: used.lockId })).status).toBe(200);
    expectV1Error(await execute({ lockId: used.lockId }), 409, 'QUOTE_EXPIRED');
  });

  it('lets exactly one of 20 parallel executes win', async () => {
    const locked = await lockOk({ ...BTC_TO_ETH, provider: 'CHAINFLIP' });
    const results = await Promise.all(Array.from({ length: 20 }, () => execute({ lockId: locked.lockId })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    for (const r of results.filter((r) => r.status === 409)) expect(r.body.error.code).toBe('QUOTE_EXPIRED');
    const { count } = await firstRow(
      t.app.sql`select count(*)::int as count from transactions where lock_id = ${locked.lockId}`,
    );
    expect(count).toBe(1);
    expect(t.sims.CHAINFLIP.log.filter((e) => e.kind === 'execute')).toHaveLength(1);
  });

  it('hands the lock back when the provider fails, so a retry succeeds', async () => {
    const locked = await lockOk({ ...BTC_TO_ETH, provider: 'CHAINFLIP' });
    t.sims.CHAINFLIP.configure({ faults: { execute: 'error5xx' } });
    expectV1Error(await execute({ lockId: locked.lockId }), 503, 'PROVIDER_UNAVAILABLE');
    const row = await firstRow(t.app.sql`select state from locks where id = ${locked.lockId}`);
    expect(row.state).toBe('locked');
    expect((await t.app.sql`select 1 from transactions where lock_id = ${locked.lockId}`).length).toBe(0);
    t.sims.CHAINFLIP.configure({ faults: { execute: 'malformed' } });
    expectV1Error(await execute({ lockId: locked.lockId }), 502, 'BAD_GATEWAY');
    t.sims.CHAINFLIP.configure({ faults: { execute: 'none' } });
    const ok = await execute({ lockId: locked.lockId });
    expect(ok.status).toBe(200);
  });

  it('takes the referral code from the lock unless execute overrides it', async () => {
    const kept = await lockOk({ ...ETH_TO_BTC, provider: 'RELAY', referralCode: 'from-lock' });
    const keptTx = (await execute({ lockId: kept.lockId })).body.data.transaction.id;
    const overridden = await lockOk({ ...ETH_TO_BTC, provider: 'RELAY', referralCode: 'from-lock' });
    const overriddenTx = (await execute({ lockId: overridden.lockId, referralCode: 'from-execute' })).body.data
      .transaction.id;
    const rows = await t.app
      .sql`select id, referral_code from transactions where id in ${t.app.sql([keptTx, overriddenTx])}`;
    const byId = Object.fromEntries(rows.map((r) => [r.id, r.referral_code]));
    expect(byId).toEqual({ [keptTx]: 'from-lock', [overriddenTx]: 'from-execute' });
  });

  it('takes chains, amount and wallets from the lock record, not the request', async () => {
    const locked = await lockOk({ ...ETH_TO_BTC, provider: 'RELAY' });
    const res = await execute({ lockId: locked.lockId, srcChain: 'solana', amount: '999', depositor: 'x' });
    expect(res.status).toBe(200);
    const tx = await firstRow(
      t.app
        .sql`select src_chain, src_amount, wallet_address from transactions where id = ${res.body.data.transaction.id}`,
    );
    expect(tx).toEqual({ src_chain: 'ethereum', src_amount: '1.5', wallet_address: ETH_TO_BTC.depositor });
  });
});
