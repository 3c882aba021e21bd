import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { type Caller, callerFor, outcomeOf, type SignedInUser, signedInUser } from './support/dashboard';
import { ETH_TO_BTC } from './support/fixtures';
import { executeSwap } from './support/flows';

let t: TestApp;
let alice: SignedInUser;
let bob: SignedInUser;
let asAlice: Caller;
let asBob: Caller;
let asAdmin: Caller;

beforeAll(async () => {
  t = await startTestApp();
  alice = await signedInUser(t.app, 'affiliate');
  bob = await signedInUser(t.app, 'affiliate');
  asAlice = await callerFor(t.app, alice.headers);
  asBob = await callerFor(t.app, bob.headers);
  asAdmin = await callerFor(t.app, (await signedInUser(t.app, 'admin')).headers);
});
afterAll(async () => {
  await t?.stop();
});

describe('affiliates.createCode', () => {
  it('creates a code owned by the caller', async () => {
    const created = await asAlice.affiliates.createCode({ code: 'ALICE-1', label: 'Newsletter' });
    expect(created).toMatchObject({ code: 'ALICE-1', label: 'Newsletter', active: true });
    const [row] = await t.app.sql`select owner_id from referral_codes where code = 'ALICE-1'`;
    expect(row?.owner_id).toBe(alice.id);
  });

  it('a taken code is a CONFLICT with a clear message, whatever its case and whoever asks', async () => {
    await asAlice.affiliates.createCode({ code: 'shared_code' });
    for (const [caller, code] of [
      [asBob, 'shared_code'],
      [asBob, 'SHARED_CODE'],
      [asAlice, 'Shared_Code'],
    ] as const) {
      const error = await caller.affiliates.createCode({ code }).catch((e) => e);
      expect(error.code).toBe('CONFLICT');
      expect(error.message).toMatch(/already taken/);
    }
  });

  it('codes must be 3–32 of [A-Za-z0-9_-]', async () => {
    for (const code of ['ab', 'x'.repeat(33), 'has space', 'semi;colon', 'ünï', '../x']) {
      expect(await outcomeOf(asAlice.affiliates.createCode({ code })), code).toBe('BAD_REQUEST');
    }
    expect(await outcomeOf(asAlice.affiliates.createCode({ code: 'abc' }))).toBe('OK');
    expect(await outcomeOf(asAlice.affiliates.createCode({ code: `A_${'b'.repeat(30)}` }))).toBe('OK');
  });
});

describe('affiliates.overview', () => {
  beforeAll(async () => {
    await asBob.affiliates.createCode({ code: 'BOB-1' });
    const settled = await executeSwap(t, { ...ETH_TO_BTC, referralCode: 'ALICE-1' }, 'RELAY');
    const settledUnrecorded = await executeSwap(t, { ...ETH_TO_BTC, referralCode: 'ALICE-1' }, 'RELAY');
    await executeSwap(t, { ...ETH_TO_BTC, referralCode: 'BOB-1' }, 'RELAY');
    await executeSwap(t, ETH_TO_BTC, 'RELAY');
    await t.app.sql`
      update transactions set status = 'SUCCESS', amount_usd = 4000, fee_amount_usd = 12.5
      where id = ${settled.transaction.id}`;
    // No fee recorded by the provider: the fee quoted at execute counts.
    await t.app.sql`
      update transactions set status = 'SUCCESS', amount_usd = 0, quoted_fee_usd = 2.5, fee_amount_usd = null
      where id = ${settledUnrecorded.transaction.id}`;
  });

  it('an affiliate sees swaps, volume, fees and success rate for their own codes only', async () => {
    const overview = await asAlice.affiliates.overview({ range: '7d' });
    expect(overview.ownerId).toBe(alice.id);
    expect(overview.codes.map((c) => c.code).sort()).toEqual(
      ['ALICE-1', 'shared_code', 'abc', `A_${'b'.repeat(30)}`].sort(),
    );
    expect(overview.totals).toMatchObject({ swaps: 2, volumeUsd: 4000, feesUsd: 15, successRate: 1 });
    expect(overview.codes.find((c) => c.code === 'ALICE-1')).toMatchObject({ swaps: 2, volumeUsd: 4000 });
    expect(overview.recent).toHaveLength(2);
    expect(overview.recent.every((r) => r.referralCode === 'ALICE-1')).toBe(true);
    expect(overview.series.reduce((sum, p) => sum + p.swaps, 0)).toBe(2);
    expect(JSON.stringify(overview)).not.toContain('BOB-1');
  });

  it('an affiliate cannot read another affiliate: naming their id is NOT_FOUND and leaks nothing', async () => {
    const error = await asBob.affiliates.overview({ ownerId: alice.id }).catch((e) => e);
    expect(error.code).toBe('NOT_FOUND');
    expect(JSON.stringify(error)).not.toContain('ALICE-1');
    const own = await asBob.affiliates.overview({ ownerId: bob.id });
    expect(own.codes.map((c) => c.code)).toEqual(['BOB-1']);
    expect(own.totals.swaps).toBe(1);
  });

  it('an admin sees every affiliate, or one of them', async () => {
    const all = await asAdmin.affiliates.overview({});
    expect(all.ownerId).toBeNull();
    expect(all.totals.swaps).toBe(3);
    expect(all.codes.find((c) => c.code === 'BOB-1')?.ownerEmail).toBe(bob.email);
    const onlyBob = await asAdmin.affiliates.overview({ ownerId: bob.id });
    expect(onlyBob.codes.map((c) => c.code)).toEqual(['BOB-1']);
    const listed = await asAdmin.affiliates.list();
    expect(listed.map((a) => a.email)).toEqual(expect.arrayContaining([alice.email, bob.email]));
    expect(listed.find((a) => a.id === alice.id)?.codes).toBe(4);
  });
});
