import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failedSignIns } from '../server/audit/list';
import { handleAuthRequestFor } from '../server/auth/handler';
import { auditThrottledSignIn } from '../server/auth/throttled-sign-in';
import { signInFailures } from '../server/observability/registry';
import { signedClientAddress } from '../server/ratelimit/client';
import { startTestApp, type TestApp } from './support/app';
import { uniqueEmail } from './support/dashboard';

const BASE = 'http://127.0.0.1:3000';
// A window far longer than the test: Better Auth's limiter (real time) holds for all of it.
const WINDOW_SECONDS = 600;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    AUTH_SIGN_IN_RATE_LIMIT_ENABLED: 'true',
    AUTH_SIGN_IN_RATE_LIMIT: `3/${WINDOW_SECONDS}`,
  });
}, 60_000);
afterAll(() => t?.stop());

const signInFrom = (address: string, email: string) =>
  handleAuthRequestFor(
    t.app,
    new Request(`${BASE}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: BASE,
        'x-switchyard-client-ip': signedClientAddress(address),
        'user-agent': 'throttle-test/1.0',
      },
      body: JSON.stringify({ email, password: 'a wrong guess, again' }),
    }),
  );

const failuresFrom = (address: string) =>
  t.app.sql<{ actor_email: string | null; after: Record<string, unknown> }[]>`
    select actor_email, after from audit_events
    where action = 'auth.sign_in_failed' and client_address = ${address} order by id`;

const failureCount = async () => (await signInFailures.get()).values[0]?.value ?? 0;

describe('a sign-in the limiter refuses', () => {
  it('is audited once per address and window, with the attempts it stands for', async () => {
    const address = '198.51.100.77';
    const email = uniqueEmail('target');
    const before = await failureCount();
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await signInFrom(address, email)).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429, 429]);
    expect(await failureCount()).toBe(before + 9);

    const rows = await failuresFrom(address);
    expect(rows.map((r) => r.after)).toEqual([
      { reason: 'INVALID_EMAIL_OR_PASSWORD' },
      { reason: 'INVALID_EMAIL_OR_PASSWORD' },
      { reason: 'INVALID_EMAIL_OR_PASSWORD' },
      { reason: 'throttled', attempts: 1, windowSeconds: WINDOW_SECONDS },
    ]);
    expect(rows.at(-1)?.actor_email).toBe(email);

    // The next window's first throttled attempt carries the five held back since.
    await auditThrottledSignIn(t.app, { address, email, headers: new Headers() }, Date.now() + WINDOW_SECONDS * 1000);
    expect((await failuresFrom(address)).at(-1)?.after).toEqual({
      reason: 'throttled',
      attempts: 6,
      windowSeconds: WINDOW_SECONDS,
    });
    const view = await failedSignIns(t.app, { window: '1h' });
    expect(view.byAddress.find((r) => r.key === address)?.attempts).toBe(3 + 1 + 6);
    expect(view.byAccount.find((r) => r.key === email)?.attempts).toBe(3 + 1 + 6);
  });

  it('is audited once per account tried in a window, whichever address tries it', async () => {
    const email = uniqueEmail('shared-target');
    const [first, second] = ['203.0.113.71', '203.0.113.72'];
    for (const address of [first, second]) {
      for (let i = 0; i < 5; i++) await signInFrom(address, email);
    }
    const throttled = await t.app.sql<{ client_address: string }[]>`
      select client_address from audit_events
      where action = 'auth.sign_in_failed' and actor_email = ${email} and after->>'reason' = 'throttled'`;
    expect(throttled.map((r) => r.client_address)).toEqual([first]);
  });
});
