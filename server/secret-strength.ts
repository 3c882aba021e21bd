/**
 * Why a production secret is no secret, or undefined when it may be one. A sample copied from a
 * compose file or a README (`change-me-…`), the development fallback, or a value of a few repeated
 * characters passes any length check and is the first thing an attacker tries.
 */
const PLACEHOLDER = /change[-_ ]?me|replace[-_ ]?me|placeholder|example|your[-_ ]?secret|development-only|not-?secret/i;
/** A random hex or base64 value of the required length has 16 or more. */
const MIN_DISTINCT_CHARACTERS = 10;

export function placeholderProblem(value: string): string | undefined {
  if (PLACEHOLDER.test(value)) return 'is a placeholder';
  if (new Set(value).size < MIN_DISTINCT_CHARACTERS) return 'is a placeholder (too few distinct characters)';
  return undefined;
}
