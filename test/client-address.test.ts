import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAuth } from '../server/auth/auth';
import { handleAuthRequestFor } from '../server/auth/handler';
import { handleApiRequest } from '../server/http/routes';
import {
  CLIENT_IP_HEADER,
  clientAddress,
  clientKey,
  signedClientAddress,
  UNKNOWN_CLIENT,
} from '../server/ratelimit/client';
import { startTestApp, type TestApp } from './support/app';
import { PASSWORD, signedInUser } from './support/dashboard';

const LIMITS = { RATE_LIMIT_CATALOG: '3', RATE_LIMIT_EXECUTE: '50', RATE_LIMIT_WINDOW_SECONDS: '60' };

describe('clientKey', () => {
  it('keys IPv4 (and IPv4-mapped IPv6) per address and IPv6 per /64', () => {
    expect(clientKey('192.0.2.1')).toBe('192.0.2.1');
    expect(clientKey('192.0.2.2')).not.toBe(clientKey('192.0.2.1'));
    expect(clientKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe(clientKey('2001:db8:1:2:bbbb:cccc:dddd:2'));
    expect(clientKey('2001:DB8:1:2::9')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'));
    expect(clientKey('unknown')).toBe('unknown');
  });
});

describe('clientAddress', () => {
  const from = (value: string) =>
    clientAddress({ headers: new Headers({ [CLIENT_IP_HEADER]: value }) }, { trustProxy: false });

  it('believes a value our layer signed, again from memory, and never a forged one beside it', () => {
    const genuine = signedClientAddress('192.0.2.77');
    expect(from(genuine)).toBe('192.0.2.77');
    expect(from(genuine)).toBe('192.0.2.77');
    const tampered = genuine.slice(0, -1) + (genuine.endsWith('A') ? 'B' : 'A');
    expect(from(tampered)).toBe(UNKNOWN_CLIENT);
    expect(from(tampered)).toBe(UNKNOWN_CLIENT);
    expect(from(`${genuine} extra`)).toBe(UNKNOWN_CLIENT);
    expect(from(`192.0.2.78 ${genuine.split(' ')[1]}`)).toBe(UNKNOWN_CLIENT);
    expect(from(genuine)).toBe('192.0.2.77');
  });
});

describe('the client address header', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(LIMITS);
  });
  afterAll(() => t?.stop());

  // What a Next route handler does under `next start` or `next dev`: hand the request, headers as
  // the client sent them, to the same dispatcher. No layer of ours stamped the address.
  const asNextRouteHandler = (headers: Record<string, string>) =>
    handleApiRequest(t.app, new Request('http://127.0.0.1:3000/api/v1/swap/sources', { headers }));

  it('is ignored when a client sends it to a Next route handler, signed or not', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const forged = i % 2 ? `203.0.113.${i}` : `203.0.113.${i} ${'A'.repeat(43)}`;
      statuses.push((await asNextRouteHandler({ [CLIENT_IP_HEADER]: forged })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });

  it('is ignored when a client sends it through the node:http adapter', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.fetch('/api/v1/swap/chains?perPage=1', {
        headers: { [CLIENT_IP_HEADER]: signedClientAddress(`198.51.100.${i}`), 'x-forwarded-for': `10.1.1.${i}` },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });

  it('is believed when our own layer signed it, and IPv6 clients share one budget per /64', async () => {
    const from = (address: string) =>
      handleApiRequest(
        t.app,
        new Request('http://127.0.0.1:3000/api/v1/swap/assets?perPage=1', {
          headers: { [CLIENT_IP_HEADER]: signedClientAddress(address) },
        }),
      );
    const rotating = ['2001:db8:7:7::1', '2001:db8:7:7::2', '2001:db8:7:7:ffff::3', '2001:db8:7:7::4'];
    const statuses = [];
    for (const address of rotating) statuses.push((await from(address)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await from('2001:db8:7:8::1')).status).toBe(200);
    expect((await from('192.0.2.10')).status).toBe(200);
  });

  it('keys idempotency on the /64 too: a retry from a rotated IPv6 address is a replay', async () => {
    const execute = (address: string) =>
      handleApiRequest(
        t.app,
        new Request('http://127.0.0.1:3000/api/v1/quote/execute', {
          method: 'POST',
          headers: {
            [CLIENT_IP_HEADER]: signedClientAddress(address),
            'content-type': 'application/json',
            'idempotency-key': 'rotating-v6-key',
          },
          body: JSON.stringify({ lockId: 'lk_0000000000000000000000' }),
        }),
      );
    expect((await execute('2001:db8:9:9::1')).headers.get('idempotent-replayed')).toBeNull();
    expect((await execute('2001:db8:9:9::abcd')).headers.get('idempotent-replayed')).toBe('true');
    expect((await execute('2001:db8:9:a::1')).headers.get('idempotent-replayed')).toBeNull();
  });

  it("is what Better Auth records as the session's address, never a client's claim", async () => {
    const user = await signedInUser(t.app, 'support');
    const signIn = (headers: Record<string, string>) =>
      handleAuthRequestFor(
        t.app,
        new Request('http://127.0.0.1:3000/api/auth/sign-in/email', {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:3000', ...headers },
          body: JSON.stringify({ email: user.email, password: PASSWORD }),
        }),
      );
    const forged = await signIn({ [CLIENT_IP_HEADER]: '203.0.113.99', 'x-forwarded-for': '203.0.113.98' });
    expect(forged.status).toBe(200);
    const stamped = await signIn({ [CLIENT_IP_HEADER]: signedClientAddress('192.0.2.55') });
    expect(stamped.status).toBe(200);
    const rows = await t.app.sql`select ip_address from auth_session where user_id = ${user.id}`;
    const addresses = rows.map((r) => r.ip_address);
    expect(addresses).toContain('192.0.2.55');
    expect(addresses.join()).not.toMatch(/203\.0\.113/);
    expect(getAuth(t.app).options.advanced?.ipAddress?.ipAddressHeaders).not.toContain(CLIENT_IP_HEADER);
  });
});
