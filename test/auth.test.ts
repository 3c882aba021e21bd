import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { unstable_doesMiddlewareMatch } from 'next/experimental/testing/server';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxy, config as proxyConfig } from '../proxy';
import { getAuth, selfSignUpOpen } from '../server/auth/auth';
import { ensureAdmin } from '../server/auth/users';
import { parseConfig } from '../server/config';
import { createAppContext } from '../server/context';
import { handleTrpcRequest } from '../server/trpc/handler';
import { startTestApp, type TestApp } from './support/app';
import { callerFor, outcomeOf, PASSWORD, signedInUser, signIn, uniqueEmail } from './support/dashboard';
import { childEnv } from './support/processes';

const run = promisify(execFile);
const BASE = 'http://127.0.0.1:3000';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.stop();
});

const roleOf = async (email: string) =>
  (await t.app.sql`select role from auth_user where email = ${email}`)[0]?.role as string | undefined;

const signUp = (app: TestApp['app'], body: Record<string, unknown>) =>
  getAuth(app).handler(
    new Request(`${BASE}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: BASE },
      body: JSON.stringify(body),
    }),
  );

describe('before the first admin exists', () => {
  let fresh: TestApp;
  beforeAll(async () => {
    fresh = await startTestApp();
  });
  afterAll(() => fresh?.stop());

  it('self sign-up is refused by the server, so nobody can pre-register the admin email', async () => {
    const res = await signUp(fresh.app, { email: 'ops@example.com', password: PASSWORD, name: 'Squatter' });
    expect(res.status).toBe(403);
    expect(JSON.stringify(await res.json())).toMatch(/administrator/i);
    expect((await fresh.app.sql`select count(*)::int as n from auth_user`)[0]?.n).toBe(0);
    expect(await selfSignUpOpen(fresh.app)).toBe(false);

    await ensureAdmin(fresh.app, { email: 'ops@example.com', password: PASSWORD, name: 'Ops' });
    expect(await selfSignUpOpen(fresh.app)).toBe(true);
    const later = await signUp(fresh.app, { email: uniqueEmail('later'), password: PASSWORD, name: 'Later' });
    expect(later.status).toBe(200);
  });
});

describe('self sign-up', () => {
  beforeAll(async () => {
    await signedInUser(t.app, 'admin');
  });

  it('creates an affiliate who can use the affiliate pages', async () => {
    const email = uniqueEmail('signup');
    const res = await signUp(t.app, { email, password: PASSWORD, name: 'New Affiliate' });
    expect(res.status).toBe(200);
    expect(await roleOf(email)).toBe('affiliate');
    const caller = await callerFor(t.app, await signIn(t.app, email));
    expect((await caller.session.me()).role).toBe('affiliate');
  });

  it('a crafted body cannot choose the role (or unban itself)', async () => {
    for (const extra of [{ role: 'admin' }, { role: 'support' }, { data: { role: 'admin' } }, { banned: false }]) {
      const email = uniqueEmail('crafted');
      const res = await signUp(t.app, { email, password: PASSWORD, name: 'Mallory', ...extra });
      const role = await roleOf(email);
      expect([undefined, 'affiliate'], `${JSON.stringify(extra)} → ${res.status}`).toContain(role);
    }
  });

  it('is closed when AFFILIATE_SIGNUP_ENABLED is false', async () => {
    const closed = createAppContext(parseConfig({ ...t.env, AFFILIATE_SIGNUP_ENABLED: 'false' }));
    try {
      const email = uniqueEmail('closed');
      const res = await signUp(closed, { email, password: PASSWORD, name: 'Late' });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(await roleOf(email)).toBeUndefined();
    } finally {
      await closed.close();
    }
  });

  it('stores only a hash of the password', async () => {
    const user = await signedInUser(t.app, 'support');
    const [account] = await t.app.sql`select password from auth_account where user_id = ${user.id}`;
    expect(account?.password).toBeTruthy();
    expect(account?.password).not.toContain(PASSWORD);
  });
});

describe('scripts/create-admin.ts', () => {
  const cli = (args: string[]) =>
    run('npx', ['tsx', 'scripts/create-admin.ts', ...args], { env: childEnv(t.env) }).then(
      (r) => ({ code: 0, out: r.stdout }),
      (e) => ({ code: e.code as number, out: `${e.stdout}${e.stderr}` }),
    );

  it('creates the first admin; run again it changes nothing, not even the password', async () => {
    const email = uniqueEmail('root');
    const first = await cli(['--email', email, '--password', PASSWORD, '--name', 'Root']);
    expect(first, first.out).toMatchObject({ code: 0 });
    expect(first.out).toMatch(/created admin/);
    expect(await roleOf(email)).toBe('admin');
    const admin = await callerFor(t.app, await signIn(t.app, email));
    expect((await admin.users.list()).some((u) => u.email === email)).toBe(true);

    const again = await cli(['--email', email, '--password', 'another long password', '--name', 'Root']);
    expect(again, again.out).toMatchObject({ code: 0 });
    expect(again.out).toMatch(/already an admin/);
    expect((await t.app.sql`select count(*)::int as n from auth_user where email = ${email}`)[0]?.n).toBe(1);
    await expect(signIn(t.app, email, 'another long password')).rejects.toThrow();
    await signIn(t.app, email);
  }, 60_000);

  it('never promotes an account it did not create (a self sign-up squatting the email)', async () => {
    const email = uniqueEmail('squat');
    expect((await signUp(t.app, { email, password: 'squatter password 1', name: 'Squatter' })).status).toBe(200);
    const squatter = await signIn(t.app, email, 'squatter password 1');
    const res = await cli(['--email', email, '--password', PASSWORD, '--name', 'Ops']);
    expect(res.code, res.out).toBe(1);
    expect(res.out).toMatch(/not promoted/);
    expect(await roleOf(email)).toBe('affiliate');
    expect((await (await callerFor(t.app, squatter)).session.me()).role).toBe('affiliate');
    await expect(signIn(t.app, email)).rejects.toThrow();
  }, 60_000);

  it('refuses missing or weak arguments', async () => {
    const res = await cli(['--email', 'not-an-email', '--password', 'short']);
    expect(res.code).toBe(2);
    expect(res.out).toMatch(/--email/);
  }, 60_000);
});

describe('role changes', () => {
  it('raising a role signs the user out everywhere; the old session cannot use the new role', async () => {
    const admin = await signedInUser(t.app, 'admin');
    const target = await signedInUser(t.app, 'affiliate');
    await (await callerFor(t.app, admin.headers)).users.setRole({ userId: target.id, role: 'support' });
    expect(await outcomeOf((await callerFor(t.app, target.headers)).transactions.search({}))).toBe('UNAUTHORIZED');
    const fresh = await callerFor(t.app, await signIn(t.app, target.email));
    expect(await outcomeOf(fresh.transactions.search({}))).toBe('OK');
  });

  it("Better Auth's own role endpoints are closed: roles change only through the users procedures", async () => {
    const admin = await signedInUser(t.app, 'admin');
    const target = await signedInUser(t.app, 'affiliate');
    for (const [path, body] of [
      ['/admin/set-role', { userId: target.id, role: 'admin' }],
      ['/admin/update-user', { userId: target.id, data: { role: 'admin' } }],
    ] as const) {
      const res = await getAuth(t.app).handler(
        new Request(`${BASE}/api/auth${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: BASE, cookie: admin.headers.get('cookie') ?? '' },
          body: JSON.stringify(body),
        }),
      );
      expect(res.status, path).toBe(404);
    }
    expect(await roleOf(target.email)).toBe('affiliate');
  });
});

describe('/api/trpc over HTTP', () => {
  const trpcRequest = (path: string, init: RequestInit & { headers?: Record<string, string> }) =>
    handleTrpcRequest(new Request(`${BASE}/api/trpc/${path}`, init), t.app);

  it('anonymous queries are 401, wrong roles 403, domain errors keep their status', async () => {
    const anonymous = await trpcRequest('transactions.search?input=%7B%22json%22%3A%7B%7D%7D', { method: 'GET' });
    expect(anonymous.status).toBe(401);
    const affiliate = await signedInUser(t.app, 'affiliate');
    const cookie = affiliate.headers.get('cookie') ?? '';
    const forbidden = await trpcRequest('operations.overview', { method: 'GET', headers: { cookie } });
    expect(forbidden.status).toBe(403);
    const support = await signedInUser(t.app, 'support');
    const missing = await trpcRequest('transactions.pollNow', {
      method: 'POST',
      headers: { cookie: support.headers.get('cookie') ?? '', 'content-type': 'application/json', origin: BASE },
      body: JSON.stringify({ json: { id: 'tx_missing' } }),
    });
    expect(missing.status).toBe(404);
    expect(JSON.stringify(await missing.json())).not.toMatch(/stack|select |postgres/i);
  });

  it('mutations must be same-origin JSON POSTs (CSRF)', async () => {
    const support = await signedInUser(t.app, 'support');
    const cookie = support.headers.get('cookie') ?? '';
    const body = JSON.stringify({ json: { id: 'tx_missing' } });
    const asForm = await trpcRequest('transactions.pollNow', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: BASE },
      body,
    });
    expect(asForm.status).toBe(415);
    const asText = await trpcRequest('transactions.pollNow', {
      method: 'POST',
      headers: { cookie, 'content-type': 'text/plain', origin: BASE },
      body,
    });
    expect(asText.status).toBe(415);
    const crossSite = await trpcRequest('transactions.pollNow', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: 'https://evil.example' },
      body,
    });
    expect(crossSite.status).toBe(403);
    const viaGet = await trpcRequest(`transactions.pollNow?input=${encodeURIComponent(body)}`, {
      method: 'GET',
      headers: { cookie },
    });
    expect(viaGet.status).toBe(405);
  });
});

describe('proxy.ts', () => {
  it('sets a fresh CSP nonce and the security headers on pages, and hands the nonce to Next', () => {
    const first = proxy(new NextRequest('http://127.0.0.1:3000/dashboard'));
    const second = proxy(new NextRequest('http://127.0.0.1:3000/dashboard'));
    const csp = first.headers.get('content-security-policy') ?? '';
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(second.headers.get('content-security-policy')).not.toContain(nonce);
    expect(first.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    expect(first.headers.get('x-middleware-request-x-nonce')).toBe(nonce);
    const secure = proxy(new NextRequest('https://switchyard.example/dashboard'));
    expect(secure.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
    expect(secure.headers.get('strict-transport-security')).toMatch(/max-age=/);
  });

  it('matches pages, /api/trpc and /api/auth, but never the public API', () => {
    const matches = (url: string) => unstable_doesMiddlewareMatch({ config: proxyConfig, url });
    for (const url of ['/', '/dashboard', '/dashboard/transactions/tx_1', '/sign-in', '/tx/tx_1', '/docs']) {
      expect(matches(url), url).toBe(true);
    }
    for (const url of ['/api/trpc/transactions.search', '/api/auth/sign-in/email'])
      expect(matches(url), url).toBe(true);
    for (const url of [
      '/api/v1/quote',
      '/api/v1/transaction/status',
      '/api/quote',
      '/api/swap/chains',
      '/api/health',
      '/api',
      '/_next/static/chunk.js',
    ]) {
      expect(matches(url), url).toBe(false);
    }
  });
});
