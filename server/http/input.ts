import type { z } from 'zod';
import { keep } from '../bounded-map';
import { AppError, type ErrorCode, problemsFromZod, validationError } from '../errors';
import { perKey } from '../per-key';
import { readCappedBody } from './capped-body';
import type { ApiRequest, RequestUrl } from './request';

export type FieldCoder = (field: string, value: unknown) => ErrorCode;

/** Parses `input`, collecting every problem; `codeFor` assigns spec codes by field when given. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown, codeFor?: FieldCoder): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = problemsFromZod(result.error);
  if (codeFor && input && typeof input === 'object') {
    for (const problem of problems) {
      const [top] = problem.field.split('.');
      if (problem.code === 'VALIDATION_ERROR' && top) {
        problem.code = codeFor(top, (input as Record<string, unknown>)[top]);
      }
    }
  }
  throw validationError(problems);
}

/** Repeated keys become arrays, as `addresses=a&addresses=b` requires. */
export function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of params) {
    const seen = Object.hasOwn(out, key) ? out[key] : undefined;
    if (seen === undefined) out[key] = value;
    else if (typeof seen === 'string') out[key] = [seen, value];
    else seen.push(value);
  }
  return out;
}

export const MAX_QUERY_LENGTH = 4096;

/** Far deeper than any request of this API; a deeper body is refused before anything walks it. */
export const MAX_JSON_DEPTH = 32;

const tooDeep = () =>
  new AppError('VALIDATION_ERROR', `Request body is nested deeper than ${MAX_JSON_DEPTH} levels`, {
    field: 'body',
    problems: [{ code: 'VALIDATION_ERROR', field: 'body', message: `nested deeper than ${MAX_JSON_DEPTH} levels` }],
  });

/**
 * Paths of strings holding a NUL character: no field may carry one (Postgres text cannot store it).
 * Walked with an explicit stack, so no nesting can overflow the call stack.
 */
function nulPaths(root: unknown, rootName: string): string[] {
  const out: string[] = [];
  const stack: { value: unknown; path: string[] }[] = [{ value: root, path: [] }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { value, path } = item;
    if (path.length > MAX_JSON_DEPTH) throw tooDeep();
    const where = () => path.join('.') || rootName;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) out.push(where());
    } else if (value && typeof value === 'object') {
      const entries = Object.entries(value);
      if (!Array.isArray(value) && entries.some(([k]) => k.includes('\u0000'))) out.push(where());
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, v] = entries[i] as [string, unknown];
        stack.push({ value: v, path: [...path, k] });
      }
    }
  }
  return out;
}

function refuseNul(value: unknown, rootName: 'query' | 'body') {
  const topLevelOnly = rootName === 'query';
  const paths = nulPaths(value, rootName);
  if (!paths.length) return;
  const fields = [...new Set(paths.map((p) => (topLevelOnly ? (p.split('.')[0] ?? p) : p)))];
  throw validationError(
    fields.map((field) => ({ code: 'VALIDATION_ERROR', field, message: 'must not contain NUL characters' })),
  );
}

/**
 * Valid queries already parsed, per schema, by their raw query string: a wallet asks for the same
 * status URL every few seconds, so most requests repeat a query, and its parse is reused instead of
 * running URLSearchParams and zod again (a pure function of the two). Shared, so frozen. Only short
 * queries are kept, which bounds the memory an attacker's distinct queries can take; as many per
 * schema as status answers are kept (4,096), so the two hold the same set of polled swaps.
 */
const parsedQueries = perKey((_schema: z.ZodType) => new Map<string, unknown>());
export const QUERIES_KEPT = 4096;
export const KEPT_QUERY_LENGTH = 256;

/** Query parameters are flat: a problem in `statuses[1]` is reported on `statuses`. */
export function parseQuery<S extends z.ZodType>(schema: S, url: RequestUrl): z.output<S> {
  const search = url.search;
  if (search.length > KEPT_QUERY_LENGTH) return parseFreshQuery(schema, url);
  const parsed = parsedQueries(schema);
  const known = parsed.get(search);
  if (known !== undefined) return known as z.output<S>;
  return keep(parsed, search, deepFreeze(parseFreshQuery(schema, url)), QUERIES_KEPT) as z.output<S>;
}

function parseFreshQuery<S extends z.ZodType>(schema: S, url: RequestUrl): z.output<S> {
  const query = readQuery(url);
  // A decoded NUL can only come from `%00` in the raw query (the HTTP parser refuses a bare one).
  if (url.search.includes('%00')) refuseNul(query, 'query');
  const result = schema.safeParse(query);
  if (result.success) return result.data;
  throw validationError(problemsFromZod(result.error).map((p) => ({ ...p, field: p.field.split('.')[0] ?? p.field })));
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

export function readQuery(url: RequestUrl): Record<string, string | string[]> {
  if (url.search.length > MAX_QUERY_LENGTH) {
    throw new AppError('VALIDATION_ERROR', `Query string longer than ${MAX_QUERY_LENGTH} characters`, {
      field: 'query',
      problems: [{ code: 'VALIDATION_ERROR', field: 'query', message: 'Query string too long' }],
    });
  }
  return queryObject(url.searchParams);
}

function bodyProblem(message: string, status = 400): AppError {
  return new AppError('VALIDATION_ERROR', message, {
    status,
    field: 'body',
    problems: [{ code: 'VALIDATION_ERROR', field: 'body', message }],
  });
}

/** Reads a JSON object body under a byte limit, without trusting Content-Length alone. */
export async function readJsonBody(
  request: Pick<ApiRequest, 'headers' | 'body' | 'readBody'>,
  maxBytes: number,
): Promise<Record<string, unknown>> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i.test(contentType.trim())) {
    throw bodyProblem('Content-Type must be application/json');
  }
  const tooLarge = () => bodyProblem(`Request body larger than ${maxBytes} bytes`, 413);
  const body = await (request.readBody
    ? request.readBody(maxBytes, tooLarge)
    : readCappedBody(request, maxBytes, tooLarge));
  const text = new TextDecoder('utf-8', { fatal: false }).decode(body);
  if (text.trim() === '') throw bodyProblem('Request body is empty; a JSON object is required');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw bodyProblem('Request body is not valid JSON');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw bodyProblem('Request body must be a JSON object');
  }
  refuseNul(parsed, 'body');
  return parsed as Record<string, unknown>;
}
