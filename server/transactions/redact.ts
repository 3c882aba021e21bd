const SECRET_KEY = /key|secret|token|signature|auth/i;
export const REDACTED = '[redacted]';

/** A deep copy of a provider context with every value under a secret-looking key replaced. */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, SECRET_KEY.test(key) ? REDACTED : redactSecrets(inner)]),
    );
  }
  return value;
}
