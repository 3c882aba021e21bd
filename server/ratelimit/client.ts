import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { keep } from '../bounded-map';
import type { Config } from '../config';

/**
 * Carries the peer address from our own node:http layers (the lean API server, web-server.ts) to
 * the handlers, which cannot see the socket. A client can send it too, so it is only believed
 * with a signature made by a key that never leaves this process.
 */
export const CLIENT_IP_HEADER = 'x-switchyard-client-ip';

/** Where Better Auth reads the client address; our auth handler always overwrites it. */
export const AUTH_CLIENT_IP_HEADER = 'x-switchyard-auth-client-ip';

/** Every request whose address cannot be established shares this one bucket. */
export const UNKNOWN_CLIENT = 'unknown';

// On globalThis so that Next's bundled copy of this module and web-server.ts's share one key.
const KEY_SLOT = Symbol.for('switchyard.client-address-key');

function processKey(): Buffer {
  const slots = globalThis as { [KEY_SLOT]?: Buffer };
  slots[KEY_SLOT] ??= randomBytes(32);
  return slots[KEY_SLOT];
}

/** What the address is read from: a request's headers, and the socket's address when the server hands it over. */
export interface ClientRequest {
  readonly headers: { get(name: string): string | null };
  readonly peerAddress?: string;
}

/** Addresses (and signed header values) remembered, oldest dropped first past this. */
const ADDRESSES_KEPT = 4096;

/**
 * `derive` remembered per address (or signed header value): a client sends many requests from one.
 * Bounded, since with TRUST_PROXY the address is whatever X-Forwarded-For says. An undefined result
 * is not remembered: it is derived again every time.
 */
function perAddress<V extends string | undefined>(derive: (address: string) => V): (address: string) => V {
  const remembered = new Map<string, V>();
  return (address) => {
    const known = remembered.get(address);
    if (known !== undefined) return known;
    const value = derive(address);
    return value === undefined ? value : keep(remembered, address, value, ADDRESSES_KEPT);
  };
}

const signatureOf = perAddress((address) => createHmac('sha256', processKey()).update(address).digest('base64url'));

/** The header value our node:http layers set from the socket: the address and its signature. */
export function signedClientAddress(socketAddress: string | undefined): string {
  const address = socketAddress || UNKNOWN_CLIENT;
  return `${address} ${signatureOf(address)}`;
}

function verifySignedAddress(header: string): string | undefined {
  const [address, signature, ...rest] = header.trim().split(' ');
  if (!address || !signature || rest.length) return undefined;
  const expected = Buffer.from(signatureOf(address));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected) ? address : undefined;
}

/**
 * Header values that passed the check, with their address: only our own layer can make one, so this
 * holds at most one per address it has seen (a forged value is checked every time and never kept).
 */
const verifiedAddressOf = perAddress(verifySignedAddress);

function verifiedSocketAddress(request: ClientRequest): string | undefined {
  if (request.peerAddress !== undefined) return request.peerAddress || UNKNOWN_CLIENT;
  const header = request.headers.get(CLIENT_IP_HEADER);
  return header ? verifiedAddressOf(header) : undefined;
}

/**
 * The client's address: the connection's as our own layer signed it, or with TRUST_PROXY the
 * right-most X-Forwarded-For entry (the one our own proxy appended). Without either, as under
 * `next start`, every client is UNKNOWN_CLIENT rather than whoever it claims to be.
 */
export function clientAddress(request: ClientRequest, config: Pick<Config, 'trustProxy'>): string {
  if (config.trustProxy) {
    const last = request.headers.get('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (last && ipaddr.isValid(last)) return last;
  }
  return verifiedSocketAddress(request) ?? UNKNOWN_CLIENT;
}

/**
 * What limits and idempotency are keyed on: an IPv4 address (also when IPv4-mapped) as it is, an
 * IPv6 address by its /64, since one subscriber is handed a whole /64 to rotate through.
 */
export const clientKey = perAddress((address) => {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = [...parsed.toByteArray().slice(0, 8), ...new Array<number>(8).fill(0)];
  return `${ipaddr.fromByteArray(prefix).toString()}/64`;
});

export const clientIdentity = (request: ClientRequest, config: Pick<Config, 'trustProxy'>) =>
  clientKey(clientAddress(request, config));

/** Rate-limit hits are stored per client without keeping the raw address. */
export function clientHash(address: string, key: string): string {
  return createHmac('sha256', key).update(address).digest('hex').slice(0, 16);
}
