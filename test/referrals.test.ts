import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { expectV1Error, expectV1Headers } from './support/assertions';
import { callerFor, signedInUser } from './support/dashboard';
import { BTC_TO_ETH, ETH_TO_BTC } from './support/fixtures';
import { executeSwap } from './support/flows';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

const referralOf = async (transactionId: string) =>
  (await t.app.sql`select referral_code, referral_owner_id from transactions where id = ${transactionId}`)[0];

describe('referral attribution', () => {
  it('a code registered after strangers used it inherits none of their swaps', async () => {
    const early = await executeSwap(t, { ...ETH_TO_BTC, referralCode: 'LATECOMER' }, 'RELAY');
    expect(early.transaction.id).toMatch(/^tx_/);
    expect(await referralOf(early.transaction.id)).toEqual({ referral_code: 'LATECOMER', referral_owner_id: null });

    const squatter = await signedInUser(t.app, 'affiliate');
    const asSquatter = await callerFor(t.app, squatter.headers);
    await asSquatter.affiliates.createCode({ code: 'LATECOMER' });
    const overview = await asSquatter.affiliates.overview({ range: '7d' });
    expect(overview.totals.swaps).toBe(0);
    expect(overview.recent).toEqual([]);
    expect(JSON.stringify(overview)).not.toContain(ETH_TO_BTC.depositor);

    const later = await executeSwap(t, { ...ETH_TO_BTC, referralCode: 'latecomer' }, 'RELAY');
    expect(await referralOf(later.transaction.id)).toEqual({
      referral_code: 'latecomer',
      referral_owner_id: squatter.id,
    });
    const after = await asSquatter.affiliates.overview({ range: '7d' });
    expect(after.totals.swaps).toBe(1);
    expect(after.recent.map((r) => r.id)).toEqual([later.transaction.id]);
  });

  it('an unregistered or inactive code never fails the swap; it is kept as given and credits nobody', async () => {
    const owner = await signedInUser(t.app, 'affiliate');
    await (await callerFor(t.app, owner.headers)).affiliates.createCode({ code: 'PAUSED-1' });
    await t.app.sql`update referral_codes set active = false where code = 'PAUSED-1'`;
    for (const referralCode of ['NOBODY-HAS-THIS', 'PAUSED-1']) {
      const locked = await t.post('/api/v1/quote/lock', {
        ...BTC_TO_ETH,
        provider: 'THORCHAIN',
        referralCode: `  ${referralCode} `,
      });
      expect(locked.status).toBe(200);
      const [lock] = await t.app
        .sql`select referral_code, referral_owner_id from locks where id = ${locked.body.data.lockId}`;
      expect(lock).toEqual({ referral_code: referralCode, referral_owner_id: null });
    }
  });

  it('an unregistered code is stored on the swap and filters history, v1 and the dashboard, but credits nobody', async () => {
    const swap = await executeSwap(t, { ...ETH_TO_BTC, referralCode: 'NOTREG1' }, 'RELAY');
    expect(await referralOf(swap.transaction.id)).toEqual({ referral_code: 'NOTREG1', referral_owner_id: null });

    const history = await t.json('/api/v1/transaction/history?referralCode=NOTREG1');
    expect(history.status).toBe(200);
    expect(history.body.data.map((item: { id: string }) => item.id)).toEqual([swap.transaction.id]);
    expect(history.body.pagination.total).toBe(1);

    const admin = await callerFor(t.app, (await signedInUser(t.app, 'admin')).headers);
    const found = await admin.transactions.search({ referralCode: 'NOTREG1' });
    expect(found.items.map((item) => item.id)).toEqual([swap.transaction.id]);
    const detail = await admin.transactions.detail({ id: swap.transaction.id });
    expect(detail.transaction).toMatchObject({ referralCode: 'NOTREG1', referralCredited: false });

    const everyone = await admin.affiliates.overview({ range: '7d' });
    expect(everyone.recent.map((r) => r.id)).not.toContain(swap.transaction.id);
    expect(everyone.codes.map((c) => c.code)).not.toContain('NOTREG1');

    const registersLater = await callerFor(t.app, (await signedInUser(t.app, 'affiliate')).headers);
    await registersLater.affiliates.createCode({ code: 'NOTREG1' });
    const overview = await registersLater.affiliates.overview({ range: '7d' });
    expect(overview.totals.swaps).toBe(0);
    expect(overview.recent).toEqual([]);
  });

  it('execute checks an overriding code the same way', async () => {
    const owner = await signedInUser(t.app, 'affiliate');
    await (await callerFor(t.app, owner.headers)).affiliates.createCode({ code: 'AT-LOCK' });
    const overridden = await t.post('/api/v1/quote/lock', {
      ...BTC_TO_ETH,
      provider: 'THORCHAIN',
      referralCode: 'AT-LOCK',
    });
    const executed = await t.post('/api/v1/quote/execute', {
      lockId: overridden.body.data.lockId,
      referralCode: 'NOT-REGISTERED',
    });
    expect(executed.status).toBe(200);
    expect(await referralOf(executed.body.data.transaction.id)).toEqual({
      referral_code: 'NOT-REGISTERED',
      referral_owner_id: null,
    });
  });
});

describe('GET /api/v1/referral', () => {
  it('answers whether a code is registered and active, in its registered spelling', async () => {
    const owner = await signedInUser(t.app, 'affiliate');
    await (await callerFor(t.app, owner.headers)).affiliates.createCode({ code: 'Shown-Code' });
    const known = await t.json('/api/v1/referral?code=shown-code');
    expect(known.status).toBe(200);
    expectV1Headers(known.headers);
    expect(known.headers.get('x-ratelimit-limit')).toBe(t.env.RATE_LIMIT_CATALOG);
    expect(known.body).toEqual({ data: { code: 'Shown-Code', active: true } });
    const unknown = await t.json('/api/v1/referral?code=EXAMPLE-CODE');
    expect(unknown.body).toEqual({ data: { code: 'EXAMPLE-CODE', active: false } });
    expect(JSON.stringify(known.body)).not.toContain(owner.id);
  });

  it('refuses a missing or malformed code', async () => {
    expectV1Error(await t.json('/api/v1/referral'), 400, 'VALIDATION_ERROR', 'code');
    expectV1Error(await t.json('/api/v1/referral?code=has%20space'), 400, 'VALIDATION_ERROR', 'code');
  });
});
