import type { TestApp } from './app';
import { type Caller, callerFor, signedInUser } from './dashboard';
import { ETH_TO_BTC } from './fixtures';
import { executeSwap } from './flows';

/** An affiliate with a referral code of their own, signed in to the dashboard. */
export async function affiliateWithCode(t: TestApp, code: string): Promise<Caller> {
  const caller = await callerFor(t.app, (await signedInUser(t.app, 'affiliate')).headers);
  await caller.affiliates.createCode({ code });
  return caller;
}

/** A swap credited to `code`: its changes go to the code owner's endpoints. */
export const referredSwap = async (t: TestApp, code: string) =>
  (await executeSwap(t, { ...ETH_TO_BTC, referralCode: code }, 'RELAY')).transaction.id;
