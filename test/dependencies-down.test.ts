import { Writable } from 'node:stream';
import { inspect } from 'node:util';
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handleAuthRequestFor } from '../server/auth/handler';
import { parseConfig } from '../server/config';
import { type AppContext, createAppContext } from '../server/context';
import { DEPENDENCY_RETRY_AFTER_SECONDS } from '../server/errors';
import { createLogger } from '../server/log';
import { handleTrpcRequest } from '../server/trpc/handler';
import { createDashboardContext } from '../server/trpc/init';
import { startTestApp, type TestApp } from './support/app';
import { signedInUser } from './support/dashboard';

const BASE = 'http://127.0.0.1:3000';

let t: TestApp;
let down: AppContext;
let cookie: string;
let sessionToken: string;
const captured: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  const user = await signedInUser(t.app, 'support');
  cookie = user.headers.get('cookie') ?? '';
  const [row] = await t.app.sql`select token from auth_session where user_id = ${user.id}`;
  sessionToken = row?.token as string;
  expect(sessionToken).toBeTruthy();
  // The same secret as `t`, so the session cookie verifies and Better Auth goes on to query Postgres.
  down = createAppContext(
    parseConfig({ ...t.env, DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', LOG_LEVEL: 'debug' }),
  );
  down.log = createLogger(
    'debug',
    {},
    new Writable({
      write(chunk, _encoding, done) {
        captured.push(String(chunk));
        done();
      },
    }),
  );
  for (const method of ['log', 'error', 'warn', 'info', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      captured.push(args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : String(a))).join(' '));
    });
  }
});
afterAll(async () => {
  vi.restoreAllMocks();
  await down?.close();
  await t?.stop();
});

const withSession = (path: string, init: RequestInit = {}) =>
  new Request(`${BASE}${path}`, { ...init, headers: { cookie, origin: BASE, ...(init.headers ?? {}) } });

describe('Postgres unreachable', () => {
  it("Better Auth's endpoints answer 503", async () => {
    const res = await handleAuthRequestFor(down, withSession('/api/auth/get-session'));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe(DEPENDENCY_RETRY_AFTER_SECONDS);
    const body = await res.text();
    expect(body).not.toContain(sessionToken);
    expect(body).not.toMatch(/select|auth_session/i);
    const signIn = await handleAuthRequestFor(
      down,
      withSession('/api/auth/sign-in/email', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'someone@switchyard.test', password: 'a long enough password' }),
      }),
    );
    expect(signIn.status).toBe(503);
    expect(signIn.headers.get('retry-after')).toBe(DEPENDENCY_RETRY_AFTER_SECONDS);
  });

  it('tRPC answers 503 SERVICE_UNAVAILABLE, for a query and a mutation', async () => {
    const query = await handleTrpcRequest(withSession('/api/trpc/session.me'), down);
    expect(query.status).toBe(503);
    expect(query.headers.get('retry-after')).toBe(DEPENDENCY_RETRY_AFTER_SECONDS);
    const mutation = await handleTrpcRequest(
      withSession('/api/trpc/transactions.pollNow', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ json: { id: 'tx_missing' } }),
      }),
      down,
    );
    expect(mutation.status).toBe(503);
    expect(mutation.headers.get('retry-after')).toBe(DEPENDENCY_RETRY_AFTER_SECONDS);
    expect(await mutation.text()).not.toContain(sessionToken);
  });

  it("pages' server prefetch gets SERVICE_UNAVAILABLE from the context, not an internal error", async () => {
    const error = await createDashboardContext({ app: down, headers: new Headers({ cookie }) }).catch((e) => e);
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe('SERVICE_UNAVAILABLE');
    // What Next would print for a page whose viewer lookup failed: the whole cause chain.
    expect(inspect(error, { depth: 10 })).not.toContain(sessionToken);
  });

  it('logs the failure without the session token, cookie or SQL parameters', () => {
    const output = captured.join('\n');
    expect(output.length).toBeGreaterThan(0);
    expect(output).not.toContain(sessionToken);
    expect(output).not.toContain(cookie.split('=')[1] ?? cookie);
  });
});
