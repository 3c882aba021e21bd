import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** 22 base62 characters from 16 random bytes: about 130 bits, unguessable. */
function randomToken(): string {
  const bytes = randomBytes(16);
  let n = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  for (let i = 0; i < 22; i++) {
    out += ALPHABET[Number(n % 62n)];
    n /= 62n;
  }
  return out;
}

export const newRequestId = () => `req_${randomToken()}`;
export const newLockId = () => `lk_${randomToken()}`;
export const newTransactionId = () => `tx_${randomToken()}`;
export const newWebhookEndpointId = () => `whe_${randomToken()}`;
export const newWebhookMessageId = () => `msg_${randomToken()}`;

export const PUBLIC_ID_PATTERN = /^(lk|tx|req)_[0-9A-Za-z]{22}$/;
