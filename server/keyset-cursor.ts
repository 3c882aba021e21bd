import { validationError } from './errors';

/** Where a keyset page ends: the exact `created_at` (as Postgres prints it, microseconds kept) and the key of its last row. */
export interface Position {
  createdAt: string;
  id: string;
}

const SEPARATOR = '|';
/** `created_at::text` as Postgres prints it, and a key: nothing else reaches a statement. */
const TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;
const KEY = /^[A-Za-z0-9_-]{1,64}$/;

export const encodeCursor = (p: Position) => Buffer.from(`${p.createdAt}${SEPARATOR}${p.id}`).toString('base64url');

/** The position a cursor this API returned stands for; anything else is a 400 on `field`. */
export function decodeCursor(cursor: string, field = 'cursor'): Position {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const at = text.lastIndexOf(SEPARATOR);
  const createdAt = text.slice(0, at);
  const id = text.slice(at + 1);
  if (at < 1 || !TIME.test(createdAt) || !KEY.test(id) || Number.isNaN(Date.parse(createdAt))) {
    throw validationError([{ code: 'VALIDATION_ERROR', field, message: 'not a cursor this API returned' }]);
  }
  return { createdAt, id };
}
