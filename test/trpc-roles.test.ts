import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../server/auth/roles';
import { appRouter } from '../server/trpc/routers/_app';
import { startTestApp, type TestApp } from './support/app';
import {
  type Caller,
  callerFor,
  outcomeOf,
  PASSWORD,
  type SignedInUser,
  signedInUser,
  uniqueEmail,
} from './support/dashboard';
import { ETH_TO_BTC } from './support/fixtures';
import { executeSwap } from './support/flows';

let t: TestApp;
let users: Record<Role, SignedInUser>;
let transactionId: string;
let spareUserId: string;

beforeAll(async () => {
  t = await startTestApp();
  users = {
    admin: await signedInUser(t.app, 'admin'),
    support: await signedInUser(t.app, 'support'),
    affiliate: await signedInUser(t.app, 'affiliate'),
  };
  spareUserId = (await signedInUser(t.app, 'affiliate')).id;
  transactionId = (await executeSwap(t, ETH_TO_BTC, 'RELAY')).transaction.id;
});
afterAll(async () => {
  await t?.stop();
});

const code = () => `c_${randomBytes(5).toString('hex')}`;

/** An endpoint of the caller's own for the duration of `use`; its public address is never sent anything (no worker runs here). */
async function withEndpoint(c: Caller, use: (endpointId: string) => Promise<unknown>) {
  const { endpoint } = await c.webhooks.create({ url: 'https://93.184.215.14/matrix' });
  try {
    return await use(endpoint.id);
  } finally {
    await c.webhooks.delete({ endpointId: endpoint.id }).catch(() => {});
  }
}

async function redeliverOne(c: Caller) {
  return withEndpoint(c, async (endpointId) => {
    const messageId = `msg_${randomBytes(11).toString('hex')}`;
    await t.app.sql`
      insert into webhook_messages (id, endpoint_id, transaction_id, event_type, digest, payload)
      values (${messageId}, ${endpointId}, ${transactionId}, 'transaction.created', 'matrix', '{}'::jsonb)`;
    return c.webhooks.redeliver({ messageId });
  });
}

/** Every procedure, who may call it, and a valid call. A procedure missing here fails the completeness test. */
const MATRIX: { path: string; allowed: Role[]; call: (c: Caller) => Promise<unknown> }[] = [
  { path: 'session.me', allowed: ['admin', 'support', 'affiliate'], call: (c) => c.session.me() },
  { path: 'transactions.search', allowed: ['support', 'admin'], call: (c) => c.transactions.search({}) },
  {
    path: 'transactions.detail',
    allowed: ['support', 'admin'],
    call: (c) => c.transactions.detail({ id: transactionId }),
  },
  {
    path: 'transactions.pollNow',
    allowed: ['support', 'admin'],
    call: (c) => c.transactions.pollNow({ id: transactionId }),
  },
  { path: 'locks.activity', allowed: ['admin'], call: (c) => c.locks.activity({ range: '7d' }) },
  { path: 'rateLimits.activity', allowed: ['admin'], call: (c) => c.rateLimits.activity({ range: '24h' }) },
  { path: 'operations.overview', allowed: ['admin'], call: (c) => c.operations.overview() },
  { path: 'audit.list', allowed: ['admin'], call: (c) => c.audit.list({}) },
  { path: 'audit.failedSignIns', allowed: ['admin'], call: (c) => c.audit.failedSignIns({}) },
  { path: 'operations.trends', allowed: ['admin'], call: (c) => c.operations.trends({ range: '24h' }) },
  { path: 'affiliates.overview', allowed: ['affiliate', 'admin'], call: (c) => c.affiliates.overview({}) },
  {
    path: 'affiliates.statement',
    allowed: ['affiliate', 'admin'],
    call: (c) => c.affiliates.statement({ from: '2026-10-01', to: '2026-10-31' }),
  },
  {
    path: 'affiliates.createCode',
    allowed: ['affiliate', 'admin'],
    call: (c) => c.affiliates.createCode({ code: code() }),
  },
  { path: 'affiliates.list', allowed: ['admin'], call: (c) => c.affiliates.list() },
  { path: 'users.list', allowed: ['admin'], call: (c) => c.users.list() },
  {
    path: 'users.create',
    allowed: ['admin'],
    call: (c) => c.users.create({ email: uniqueEmail('new'), name: 'New', password: PASSWORD, role: 'support' }),
  },
  { path: 'webhooks.list', allowed: ['affiliate', 'admin'], call: (c) => c.webhooks.list() },
  { path: 'webhooks.create', allowed: ['affiliate', 'admin'], call: (c) => withEndpoint(c, async () => {}) },
  {
    path: 'webhooks.delete',
    allowed: ['affiliate', 'admin'],
    call: (c) => withEndpoint(c, (endpointId) => c.webhooks.delete({ endpointId })),
  },
  {
    path: 'webhooks.rotateSecret',
    allowed: ['affiliate', 'admin'],
    call: (c) => withEndpoint(c, (endpointId) => c.webhooks.rotateSecret({ endpointId })),
  },
  {
    path: 'webhooks.enable',
    allowed: ['affiliate', 'admin'],
    call: (c) => withEndpoint(c, (endpointId) => c.webhooks.enable({ endpointId })),
  },
  {
    path: 'webhooks.deliveries',
    allowed: ['affiliate', 'admin'],
    call: (c) => withEndpoint(c, (endpointId) => c.webhooks.deliveries({ endpointId })),
  },
  {
    path: 'webhooks.transactionDeliveries',
    allowed: ['support', 'admin'],
    call: (c) => c.webhooks.transactionDeliveries({ transactionId }),
  },
  { path: 'webhooks.redeliver', allowed: ['affiliate', 'admin'], call: redeliverOne },
  {
    path: 'users.setRole',
    allowed: ['admin'],
    call: (c) => c.users.setRole({ userId: spareUserId, role: 'affiliate' }),
  },
  { path: 'users.deactivate', allowed: ['admin'], call: (c) => c.users.deactivate({ userId: spareUserId }) },
  { path: 'users.reactivate', allowed: ['admin'], call: (c) => c.users.reactivate({ userId: spareUserId }) },
  { path: 'users.resetPassword', allowed: ['admin'], call: (c) => c.users.resetPassword({ userId: spareUserId }) },
];

describe('every tRPC procedure checks the role on the server', () => {
  it('the matrix lists every procedure of the router', () => {
    expect(Object.keys(appRouter._def.procedures).sort()).toEqual(MATRIX.map((m) => m.path).sort());
  });

  for (const { path, allowed, call } of MATRIX) {
    it(`${path}: ${allowed.join(' + ')} allowed; other roles FORBIDDEN; anonymous UNAUTHORIZED`, async () => {
      for (const role of ['admin', 'support', 'affiliate'] as const) {
        const outcome = await outcomeOf(call(await callerFor(t.app, users[role].headers)));
        expect(outcome, `${path} as ${role}`).toBe(allowed.includes(role) ? 'OK' : 'FORBIDDEN');
      }
      expect(await outcomeOf(call(await callerFor(t.app)))).toBe('UNAUTHORIZED');
      const forged = new Headers({ cookie: 'better-auth.session_token=forged.value' });
      expect(await outcomeOf(call(await callerFor(t.app, forged)))).toBe('UNAUTHORIZED');
    });
  }
});

describe('sessions and roles', () => {
  it('session.me reports who is signed in', async () => {
    const me = await (await callerFor(t.app, users.support.headers)).session.me();
    expect(me).toEqual({ userId: users.support.id, email: users.support.email, role: 'support' });
  });

  it('a role change signs the user out everywhere, so a demotion takes effect at once', async () => {
    const target = await signedInUser(t.app, 'support');
    expect(await outcomeOf((await callerFor(t.app, target.headers)).transactions.search({}))).toBe('OK');
    await (await callerFor(t.app, users.admin.headers)).users.setRole({ userId: target.id, role: 'affiliate' });
    expect(await outcomeOf((await callerFor(t.app, target.headers)).transactions.search({}))).toBe('UNAUTHORIZED');
  });

  it('an admin cannot remove their own admin role', async () => {
    const admin = await callerFor(t.app, users.admin.headers);
    expect(await outcomeOf(admin.users.setRole({ userId: users.admin.id, role: 'support' }))).toBe('BAD_REQUEST');
  });

  it('setting the role of an unknown user is NOT_FOUND; an unknown role is BAD_REQUEST', async () => {
    const admin = await callerFor(t.app, users.admin.headers);
    expect(await outcomeOf(admin.users.setRole({ userId: 'nobody', role: 'support' }))).toBe('NOT_FOUND');
    expect(await outcomeOf(admin.users.setRole({ userId: spareUserId, role: 'root' as never }))).toBe('BAD_REQUEST');
  });

  it('creating a user whose email exists is a CONFLICT; a short password is BAD_REQUEST', async () => {
    const admin = await callerFor(t.app, users.admin.headers);
    const taken = { email: users.support.email, name: 'Dup', password: PASSWORD, role: 'support' } as const;
    expect(await outcomeOf(admin.users.create(taken))).toBe('CONFLICT');
    expect(
      await outcomeOf(
        admin.users.create({ email: uniqueEmail('short'), name: 'S', password: 'short', role: 'support' }),
      ),
    ).toBe('BAD_REQUEST');
  });

  it('an admin-created user signs in with the role they were given', async () => {
    const admin = await callerFor(t.app, users.admin.headers);
    const email = uniqueEmail('created');
    await admin.users.create({ email, name: 'Created', password: PASSWORD, role: 'support' });
    const listed = (await admin.users.list()).find((u) => u.email === email);
    expect(listed?.role).toBe('support');
  });
});
