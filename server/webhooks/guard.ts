import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from '../errors';

export interface TargetPolicy {
  /** Development and tests only: private and loopback addresses allowed, and plain http to them. */
  allowPrivateTargets: boolean;
}

/** A webhook URL whose every address passed the guard, and the one address to connect to. */
export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

const refused = (message: string) => new AppError('VALIDATION_ERROR', message, { field: 'url', retryable: false });

/** IANA's global unicast block: every public IPv6 address is in it; `::/8`, where the IPv4-compatible and mapped forms live, is not. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

const ipv4From = (bytes: number[]) => ipaddr.fromByteArray(bytes).toString();

const WELL_KNOWN_NAT64 = ipaddr.parseCIDR('64:ff9b::/96');

/** The IPv4 address an IPv6 transition form carries, so a refusal can name it. */
function embeddedIPv4(address: ipaddr.IPv6): string | undefined {
  const bytes = address.toByteArray();
  const range = address.range();
  const compatible = range === 'unicast' && bytes.slice(0, 12).every((b) => b === 0);
  if (compatible || range === 'ipv4Mapped' || range === 'rfc6145' || address.match(WELL_KNOWN_NAT64)) {
    return ipv4From(bytes.slice(12));
  }
  if (range === '6to4') return ipv4From(bytes.slice(2, 6));
  // Teredo stores the client's address with every bit flipped.
  if (range === 'teredo') return ipv4From(bytes.slice(12).map((b) => b ^ 0xff));
  return undefined;
}

/**
 * The WHATWG form, as a URL's host and the socket see it: ipaddr.js reads `::a.b.c.d` (how glibc
 * prints an IPv4-compatible address) as IPv4-mapped, which it is not.
 */
function canonicalIPv6(address: string): string {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address;
  }
}

export interface AddressVerdict {
  isPublic: boolean;
  /** For an IPv6 form that carries an IPv4 address (compatible, mapped, NAT64, 6to4, Teredo): that address. */
  embeds?: string;
}

/**
 * Only ordinary public unicast addresses: ipaddr.js classes loopback, private, link-local (cloud
 * metadata at 169.254.169.254), CGNAT, unique-local (fd00:ec2::254), NAT64, 6to4, Teredo and every
 * reserved range as something else; an IPv4-mapped address is judged as the IPv4 it carries, and
 * any other IPv6 address must be global unicast, which the deprecated IPv4-compatible `::a.b.c.d` is not.
 */
export function judgeAddress(address: string): AddressVerdict {
  const parsed = ipaddr.parse(isIP(address) === 6 ? canonicalIPv6(address) : address);
  if (parsed.kind() === 'ipv4') return { isPublic: parsed.range() === 'unicast' };
  const v6 = parsed as ipaddr.IPv6;
  const embeds = embeddedIPv4(v6);
  if (v6.isIPv4MappedAddress()) return { isPublic: v6.toIPv4Address().range() === 'unicast', embeds };
  return { isPublic: v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST), embeds };
}

export const isPublicAddress = (address: string) => judgeAddress(address).isPublic;

/** Name resolution gives up with the attempt: a resolver that never answers cannot hold a delivery. */
function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function addressesOf(hostname: string, signal?: AbortSignal): Promise<{ address: string; family: number }[]> {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare)) return [{ address: bare, family: isIP(bare) }];
  try {
    return await abortable(lookup(bare, { all: true, verbatim: true }), signal);
  } catch (error) {
    if (signal?.aborted) throw error;
    throw refused(`${bare} does not resolve`);
  }
}

/** The syntax rules alone, for forms: an absolute https URL without credentials. */
export function parseWebhookUrl(raw: string, policy: TargetPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused('Enter an absolute URL, e.g. https://example.com/webhooks');
  }
  const plainHttpAllowed = policy.allowPrivateTargets && url.protocol === 'http:';
  if (url.protocol !== 'https:' && !plainHttpAllowed) throw refused('Webhook URLs must use https');
  if (url.username || url.password) throw refused('Webhook URLs may not carry credentials');
  return url;
}

/**
 * Resolves a webhook URL and checks every address it resolves to, at registration and again before
 * each delivery; the delivery then connects to the returned address, so a DNS answer that changes
 * between the check and the connection cannot point it anywhere else.
 */
export async function checkWebhookTarget(
  raw: string,
  policy: TargetPolicy,
  signal?: AbortSignal,
): Promise<CheckedTarget> {
  const url = parseWebhookUrl(raw, policy);
  const addresses = await addressesOf(url.hostname, signal);
  const [first] = addresses;
  if (!first) throw refused(`${url.hostname} does not resolve`);
  for (const { address } of addresses) {
    const { isPublic, embeds } = judgeAddress(address);
    if (!isPublic && !policy.allowPrivateTargets) {
      const form = embeds ? `, an IPv6 form of ${embeds},` : '';
      throw refused(`${url.hostname} resolves to ${address}${form} which is not a public address`);
    }
    if (isPublic && url.protocol !== 'https:') throw refused('Webhook URLs must use https');
  }
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
