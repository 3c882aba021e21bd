import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

const POOL_BYTES = 4096;
let pool: Buffer = Buffer.alloc(0);
let offset = 0;

/** Random bytes drawn from a pool refilled 4 KiB at a time: one CSPRNG call per ~170 ids instead of one each. */
function randomByte(): number {
  if (offset >= pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  return pool[offset++] as number;
}

/** 22 base62 characters, each uniform (bytes of 248 and over are skipped): about 131 bits, unguessable. */
function randomToken(): string {
  let out = '';
  while (out.length < 22) {
    const byte = randomByte();
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

export const newRequestId = () => `req_${randomToken()}`;
export const newLockId = () => `lk_${randomToken()}`;
export const newTransactionId = () => `tx_${randomToken()}`;
export const newWebhookEndpointId = () => `whe_${randomToken()}`;
export const newWebhookMessageId = () => `msg_${randomToken()}`;

export const PUBLIC_ID_PATTERN = /^(lk|tx|req)_[0-9A-Za-z]{22}$/;
