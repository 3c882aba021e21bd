import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';
import type { Config } from '../config';
import { clientAddress } from '../ratelimit/client';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

function rangeOf(entry: string): Range {
  if (ipaddr.isValidCIDR(entry)) {
    const [network, bits] = ipaddr.parseCIDR(entry);
    // An IPv4-mapped IPv6 range matches the IPv4 addresses it maps, as ipaddr.process presents them.
    if (network.kind() === 'ipv6' && (network as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
      return [(network as ipaddr.IPv6).toIPv4Address(), bits - 96];
    }
    return [network, bits];
  }
  const address = ipaddr.process(entry);
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}

/** Who an incoming request is, by the rate limiter's rule, and whether its trace context is believed. */
export interface IncomingTrust {
  clientAddress(request: IncomingMessage): string;
  trusts(address: string): boolean;
}

export function incomingTrust(config: Pick<Config, 'trustProxy'> & { trustedParents: string[] }): IncomingTrust {
  const ranges = config.trustedParents.map(rangeOf);
  return {
    clientAddress(request) {
      const headers = {
        get(name: string) {
          const value = request.headers[name];
          return Array.isArray(value) ? value.join(',') : (value ?? null);
        },
      };
      return clientAddress({ headers, peerAddress: request.socket.remoteAddress ?? '' }, config);
    },
    trusts(address) {
      if (!ranges.length || !ipaddr.isValid(address)) return false;
      const parsed = ipaddr.process(address);
      return ranges.some(([network, bits]) => parsed.kind() === network.kind() && parsed.match(network, bits));
    },
  };
}
