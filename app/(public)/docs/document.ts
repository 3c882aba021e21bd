import type {
  JsonSchema,
  OpenApiDocument,
  OpenApiHeader,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiResponse,
} from '@/server/openapi/document';
import type { TryItParameter } from './TryIt';

/** Reading the OpenAPI document for the reference page: operations by tag, with their references resolved. */

export type Doc = OpenApiDocument;
export type Entry = { path: string; method: 'GET' | 'POST'; operation: OpenApiOperation };

const last = (ref: string) => ref.split('/').pop() ?? ref;

export function parametersOf(doc: Doc, operation: OpenApiOperation): OpenApiParameter[] {
  return (operation.parameters ?? []).flatMap((p) => {
    if (!('$ref' in p)) return [p];
    const found = doc.components.parameters[last(p.$ref)];
    return found ? [found] : [];
  });
}

export function headersOf(doc: Doc, response: OpenApiResponse): [string, OpenApiHeader][] {
  return Object.entries(response.headers ?? {}).flatMap(([name, h]) => {
    const found = '$ref' in h ? doc.components.headers[last(h.$ref)] : h;
    return found ? [[name, found] as [string, OpenApiHeader]] : [];
  });
}

export const entriesOf = (doc: Doc, tag: string): Entry[] =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    (['get', 'post'] as const).flatMap((m) => {
      const operation = item[m];
      return operation?.tags.includes(tag) ? [{ path, method: m.toUpperCase() as Entry['method'], operation }] : [];
    }),
  );

/** The JSON a response carries: its body, or for an event stream the data of each event. */
export const schemaOf = (response: OpenApiResponse | undefined) =>
  response?.content?.['application/json']?.schema ?? response?.content?.['text/event-stream']?.['x-event-data'];

export function typeText(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return schema.enum.join(' | ');
  if (schema.type === 'array') return `array of ${typeText((schema.items as JsonSchema) ?? {})}`;
  return typeof schema.type === 'string' ? schema.type : 'any';
}

export function tryItParameters(parameters: OpenApiParameter[]): TryItParameter[] {
  return parameters.map((p) => {
    const items = (p.schema.items ?? {}) as JsonSchema;
    const single = Array.isArray(p.schema.enum) ? (p.schema.enum as string[]) : undefined;
    const list = Array.isArray(items.enum) ? (items.enum as string[]) : undefined;
    return {
      name: p.name,
      in: p.in,
      required: p.required,
      description: p.description,
      options: single,
      placeholder:
        p.name === 'Idempotency-Key'
          ? 'any unique string, e.g. a UUID'
          : list
            ? `comma-separated, e.g. ${list.slice(0, 2).join(',')}`
            : p.schema.default !== undefined
              ? `default ${String(p.schema.default)}`
              : undefined,
    };
  });
}

/** The heading of a tag's section and its link in the sidebar. */
export const tagTitle = (tag: string, long: boolean) =>
  tag === 'v1'
    ? long
      ? 'Versioned interface (v1)'
      : 'v1'
    : tag === 'legacy'
      ? long
        ? 'Unversioned interface'
        : 'Unversioned'
      : 'Health';
