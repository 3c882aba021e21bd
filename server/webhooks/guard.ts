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

/**
 * Only ordinary public unicast addresses: ipaddr.js classes loopback, private, link-local (cloud
 * metadata at 169.254.169.254), CGNAT, unique-local (fd00:ec2::254), IPv4-mapped, NAT64 and every
 * reserved range as something else, and an IPv4-mapped IPv6 address is judged as the IPv4 it carries.
 */
export const isPublicAddress = (address: string) => ipaddr.process(address).range() === 'unicast';

async function addressesOf(hostname: string): Promise<{ address: string; family: number }[]> {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare)) return [{ address: bare, family: isIP(bare) }];
  try {
    return await lookup(bare, { all: true, verbatim: true });
  } catch {
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
export async function checkWebhookTarget(raw: string, policy: TargetPolicy): Promise<CheckedTarget> {
  const url = parseWebhookUrl(raw, policy);
  const addresses = await addressesOf(url.hostname);
  const [first] = addresses;
  if (!first) throw refused(`${url.hostname} does not resolve`);
  for (const { address } of addresses) {
    const isPublic = isPublicAddress(address);
    if (!isPublic && !policy.allowPrivateTargets) {
      throw refused(`${url.hostname} resolves to ${address}, which is not a public address`);
    }
    if (isPublic && url.protocol !== 'https:') throw refused('Webhook URLs must use https');
  }
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
