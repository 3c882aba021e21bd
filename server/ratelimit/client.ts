import { createHmac } from 'node:crypto';
import type { Config } from '../config';

/** Set by our own servers from the socket; any value a client sends is overwritten. */
export const CLIENT_IP_HEADER = 'x-switchyard-client-ip';

/**
 * The client's address: the connection's, or with TRUST_PROXY the right-most X-Forwarded-For
 * entry (the one our own proxy appended), so a client cannot spoof its way past the limit.
 */
export function clientAddress(request: Request, config: Pick<Config, 'trustProxy'>): string {
  const socket = request.headers.get(CLIENT_IP_HEADER)?.trim() || 'unknown';
  if (!config.trustProxy) return socket;
  const forwarded = request.headers.get('x-forwarded-for');
  const last = forwarded
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .at(-1);
  return last || socket;
}

/** Rate-limit hits are stored per client without keeping the raw address. */
export function clientHash(address: string, key: string): string {
  return createHmac('sha256', key).update(address).digest('hex').slice(0, 16);
}
