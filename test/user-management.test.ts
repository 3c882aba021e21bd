import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { callerFor, outcomeOf, PASSWORD, type SignedInUser, signedInUser, signIn } from './support/dashboard';

let t: TestApp;
let admin: SignedInUser;

beforeAll(async () => {
  t = await startTestApp();
  admin = await signedInUser(t.app, 'admin');
});
afterAll(async () => {
  await t?.stop();
});

const asAdmin = () => callerFor(t.app, admin.headers);
const sessionWorks = async (user: SignedInUser) =>
  (await outcomeOf((await callerFor(t.app, user.headers)).session.me())) === 'OK';
const sessionsOf = async (userId: string) =>
  (await t.app.sql`select 1 from auth_session where user_id = ${userId}`).length;

describe('an admin deactivates a user', () => {
  it('ends their sessions, refuses their sign-in, and reactivating lets them back in', async () => {
    const user = await signedInUser(t.app, 'support');
    expect(await sessionWorks(user)).toBe(true);

    expect(await (await asAdmin()).users.deactivate({ userId: user.id })).toMatchObject({ active: false });
    expect(await sessionWorks(user)).toBe(false);
    expect(await sessionsOf(user.id)).toBe(0);
    await expect(signIn(t.app, user.email)).rejects.toThrow(/banned/i);
    const listed = (await (await asAdmin()).users.list()).find((u) => u.id === user.id);
    expect(listed?.banned).toBe(true);

    await (await asAdmin()).users.reactivate({ userId: user.id });
    const again = { ...user, headers: await signIn(t.app, user.email) };
    expect(await sessionWorks(again)).toBe(true);
  });

  it('an admin cannot deactivate or reset themselves, and an unknown user is NOT_FOUND', async () => {
    const caller = await asAdmin();
    expect(await outcomeOf(caller.users.deactivate({ userId: admin.id }))).toBe('BAD_REQUEST');
    expect(await outcomeOf(caller.users.resetPassword({ userId: admin.id }))).toBe('BAD_REQUEST');
    expect(await outcomeOf(caller.users.deactivate({ userId: 'nobody' }))).toBe('NOT_FOUND');
    expect(await sessionWorks(admin)).toBe(true);
  });
});

describe('an admin resets a password', () => {
  it('ends every session, retires the old password and issues a new one that signs in', async () => {
    const user = await signedInUser(t.app, 'affiliate');
    const { temporaryPassword } = await (await asAdmin()).users.resetPassword({ userId: user.id });
    expect(temporaryPassword.length).toBeGreaterThanOrEqual(20);
    expect(await sessionWorks(user)).toBe(false);
    await expect(signIn(t.app, user.email, PASSWORD)).rejects.toThrow();
    const fresh = { ...user, headers: await signIn(t.app, user.email, temporaryPassword) };
    expect(await sessionWorks(fresh)).toBe(true);
  });
});
