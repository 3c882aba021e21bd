import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** The largest multiple of 62 a byte holds: bytes from here up are skipped, so every character is uniform. */
const UNBIASED_LIMIT = 248;

/** Random bytes drawn from the CSPRNG a few kilobytes at a time (a request id is minted per request). */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

function randomByte(): number {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  return pool[poolAt++] as number;
}

/** 22 uniform base62 characters: about 131 bits, unguessable. */
function randomToken(): string {
  let out = '';
  while (out.length < 22) {
    const byte = randomByte();
    if (byte < UNBIASED_LIMIT) out += ALPHABET[byte % 62];
  }
  return out;
}

export const newRequestId = () => `req_${randomToken()}`;
export const newLockId = () => `lk_${randomToken()}`;
export const newTransactionId = () => `tx_${randomToken()}`;
export const newWebhookEndpointId = () => `whe_${randomToken()}`;
export const newWebhookMessageId = () => `msg_${randomToken()}`;

export const PUBLIC_ID_PATTERN = /^(lk|tx|req)_[0-9A-Za-z]{22}$/;
