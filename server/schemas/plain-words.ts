import type { core } from 'zod';

/**
 * Validation issues in words for the person at the form, one message per field. Pure: the dashboard's
 * forms use it in the browser and the tRPC error formatter on the server, so a field reads the same
 * whichever of them caught the mistake. zod's own messages ("Too small: expected string to have >=1
 * characters") are written for developers and never reach a page.
 */

/** What a field asks for, with its article: "a name", "an email address", "the start date". */
export type Nouns = Record<string, string>;
export type FieldErrors = Record<string, string>;

type Issue = Pick<core.$ZodIssue, 'code' | 'path' | 'message'> & {
  format?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  expected?: string;
};

const characters = (count: number | bigint | undefined) =>
  `${String(count)} character${Number(count) === 1 ? '' : 's'}`;

/** One issue in plain words; `empty` says the field was left blank, which zod does not always report as such. */
export function plainIssue(issue: Issue, noun: string, empty = false): string {
  if (empty) return `Enter ${noun}`;
  switch (issue.code) {
    case 'invalid_format':
      if (issue.format === 'email') return 'Enter a valid email address';
      if (issue.format === 'url') return 'Enter a full web address, starting with https://';
      return `Check ${noun}: it is not in the expected form`;
    case 'too_small':
      if (issue.origin === 'string')
        return Number(issue.minimum) <= 1 ? `Enter ${noun}` : `Use at least ${characters(issue.minimum)}`;
      if (issue.origin === 'array' || issue.origin === 'set') return `Choose ${noun}`;
      return `Enter ${issue.minimum} or more`;
    case 'too_big':
      if (issue.origin === 'string') return `Use at most ${characters(issue.maximum)}`;
      return `Enter ${issue.maximum} or less`;
    case 'invalid_value':
      return `Choose ${noun}`;
    case 'invalid_type':
      if (issue.expected === 'date') return `Enter ${noun} as YYYY-MM-DD`;
      return `Enter ${noun}`;
    // Our own refinements carry messages written for people.
    case 'custom':
      return issue.message;
    default:
      return `Check ${noun}`;
  }
}

/** The field an issue is about: the first key of its path, or "" for the whole input. */
export const issueField = (issue: Pick<Issue, 'path'>) => String(issue.path[0] ?? '');

/**
 * The first issue of each field in plain words. A field missing from `nouns` is named "this field"'s
 * way ("Enter a value"); `values` tells a blank field from a wrong one.
 */
export function plainFieldErrors(
  issues: readonly Issue[],
  nouns: Nouns,
  values: Record<string, unknown> = {},
): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = issueField(issue);
    if (field in errors) continue;
    const value = values[field];
    const empty = typeof value === 'string' && value.trim() === '';
    errors[field] = plainIssue(issue, nouns[field] ?? 'a value', empty);
  }
  return errors;
}
