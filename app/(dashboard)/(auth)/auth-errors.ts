import type { FieldErrors } from '@/server/schemas/plain-words';
import { ACCOUNT_NOUNS } from '@/server/schemas/users';

export interface AuthErrorWords {
  /** Messages shown next to their field. */
  fields: FieldErrors;
  /** A message about the whole form, shown under it. */
  form: string | null;
}

/** Better Auth's error codes that are about one field, in the words the form shows next to it. */
const FIELD_CODES: Record<string, [field: string, words: string]> = {
  INVALID_EMAIL: ['email', 'Enter a valid email address'],
  USER_ALREADY_EXISTS: ['email', 'An account with this email already exists. Sign in instead.'],
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: ['email', 'An account with this email already exists. Sign in instead.'],
  PASSWORD_TOO_SHORT: ['password', 'Use at least 12 characters'],
  PASSWORD_TOO_LONG: ['password', 'Use at most 128 characters'],
};

const FORM_CODES: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: 'Wrong email or password.',
  BANNED_USER: 'This account is deactivated. Ask an administrator to reactivate it.',
};

const FALLBACK = 'That did not work. Check the details and try again.';

/**
 * A refusal from Better Auth in the form's words. Its body validation answers VALIDATION_ERROR with
 * "[body.email] Invalid email address; …": only the field names are kept from that text.
 */
export function authErrorWords(error: { status: number; code?: string; message?: string }): AuthErrorWords {
  if (error.status === 429) return { fields: {}, form: 'Too many attempts. Wait a few seconds and try again.' };
  const code = error.code ?? '';
  const field = FIELD_CODES[code];
  if (field) return { fields: { [field[0]]: field[1] }, form: null };
  if (FORM_CODES[code]) return { fields: {}, form: FORM_CODES[code] };
  if (code === 'VALIDATION_ERROR') {
    const named = [...(error.message ?? '').matchAll(/\[body\.(\w+)\]/g)].map((match) => match[1] as string);
    const fields = Object.fromEntries(named.map((name) => [name, checkWords(name)]));
    return named.length ? { fields, form: null } : { fields: {}, form: FALLBACK };
  }
  // Our own refusals (sign-up closed) are written for people; Better Auth's other codes are not all.
  return { fields: {}, form: error.status === 403 && error.message ? error.message : FALLBACK };
}

const checkWords = (field: string) =>
  field === 'email'
    ? 'Enter a valid email address'
    : field in ACCOUNT_NOUNS
      ? `Check the ${field}`
      : 'Check this field';
