import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { API_ROUTES } from '../../server/http/routes';
import {
  buildOpenApiDocument,
  type HttpMethod,
  type OpenApiHeader,
  type OpenApiResponse,
} from '../../server/openapi/document';

/**
 * Every response a test reads through `t.json` / `t.post` must be one the OpenAPI document
 * describes: a documented status, a body valid against its schema, the documented `error.code`
 * values and the required headers. Paths and methods the document does not list may only answer
 * the interface's 404 / 405 envelope.
 */

const DOC_ID = 'https://switchyard.invalid/openapi.json';
const document = buildOpenApiDocument(API_ROUTES);
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ ...document, $id: DOC_ID });
const validators = new Map<string, ValidateFunction>();

const pointer = (...segments: string[]) =>
  segments.map((s) => encodeURIComponent(s.replaceAll('~', '~0').replaceAll('/', '~1'))).join('/');

function validatorAt(jsonPointer: string): ValidateFunction {
  let validate = validators.get(jsonPointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `${DOC_ID}#/${jsonPointer}` });
    validators.set(jsonPointer, validate);
  }
  return validate;
}

const preview = (body: unknown) => {
  const text = JSON.stringify(body);
  return text && text.length > 600 ? `${text.slice(0, 600)}…` : text;
};

function fail(what: string, problems: string[], body: unknown): never {
  throw new Error(`OpenAPI contract: ${what}\n  ${problems.join('\n  ')}\n  body: ${preview(body)}`);
}

function checkBody(what: string, jsonPointer: string, body: unknown) {
  const validate = validatorAt(jsonPointer);
  if (validate(body)) return;
  const problems = (validate.errors ?? []).map((e) => {
    const extra = e.keyword === 'additionalProperties' ? ` (${String(e.params.additionalProperty)})` : '';
    return `body${e.instancePath} ${e.message ?? e.keyword}${extra}`;
  });
  fail(`${what}: the body does not match the documented schema`, problems, body);
}

function headerDefinition(header: OpenApiHeader | { $ref: string }): OpenApiHeader {
  if (!('$ref' in header)) return header;
  const name = header.$ref.split('/').pop() ?? '';
  const found = document.components.headers[name];
  if (!found) throw new Error(`OpenAPI contract: unknown header reference ${header.$ref}`);
  return found;
}

function checkHeaders(what: string, response: OpenApiResponse, headers: Headers, body: unknown) {
  const problems: string[] = [];
  for (const [name, ref] of Object.entries(response.headers ?? {})) {
    const header = headerDefinition(ref);
    const value = headers.get(name);
    if (value === null) {
      if (header.required) problems.push(`header ${name} is required but missing`);
      continue;
    }
    const { type, pattern } = header.schema as { type?: string; pattern?: string };
    const constant = (header.schema as { const?: string }).const;
    if (type === 'integer' && !/^\d+$/.test(value)) problems.push(`header ${name}: "${value}" is not an integer`);
    if (pattern && !new RegExp(pattern).test(value))
      problems.push(`header ${name}: "${value}" does not match ${pattern}`);
    if (constant !== undefined && value !== constant) problems.push(`header ${name}: "${value}" is not "${constant}"`);
  }
  if (problems.length) fail(`${what}: headers differ from the document`, problems, body);
}

function checkErrorCode(what: string, codes: string[] | undefined, body: unknown) {
  if (!codes) return;
  const code = (body as { error?: { code?: unknown } } | null)?.error?.code;
  if (typeof code !== 'string' || !codes.includes(code)) {
    fail(`${what}: error.code ${JSON.stringify(code)} is not documented for this status`, [codes.join(', ')], body);
  }
}

/** Throws, failing the test, when a response is not the one the OpenAPI document describes. */
export function assertDocumentedResponse(method: string, url: string, status: number, headers: Headers, body: unknown) {
  const verb = method.toUpperCase();
  if (verb === 'OPTIONS') return;
  const path = new URL(url, 'http://localhost').pathname.replace(/\/+$/, '');
  const what = `${verb} ${path} answered ${status}`;
  const item = document.paths[path];
  const operation = item?.[(verb === 'HEAD' ? 'get' : verb.toLowerCase()) as HttpMethod];

  if (!operation) {
    // Not a documented operation: only the interface's "no such path" or "wrong method" error.
    const allowed = item ? [405, 429] : [404, 429];
    if (!allowed.includes(status)) fail(`${what}, but the document has no such operation`, [], body);
    const envelope = path === '/api/v1' || path.startsWith('/api/v1/') ? 'V1Error' : 'LegacyError';
    checkBody(what, pointer('components', 'schemas', envelope), body);
    return;
  }

  const response = operation.responses[String(status)];
  if (!response) {
    fail(`${what}, a status the document does not list`, [`documented: ${Object.keys(operation.responses)}`], body);
  }
  checkHeaders(what, response, headers, body);
  if (verb === 'HEAD' || !response.content) return;
  checkErrorCode(what, response['x-error-codes'], body);
  checkBody(
    what,
    pointer('paths', path, verb.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema'),
    body,
  );
}
