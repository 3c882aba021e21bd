import type { CSSProperties } from 'react';
import { cell, Table } from '@/app/_kit/Table';
import type { JsonSchema } from '@/server/openapi/document';
import styles from './docs.module.css';
import { Text } from './Text';

const REF = '#/components/schemas/';

export const refName = (schema: JsonSchema | undefined) =>
  typeof schema?.$ref === 'string' && schema.$ref.startsWith(REF) ? schema.$ref.slice(REF.length) : undefined;

/** ` required` or ` optional` after a field or parameter name. */
export function Presence({ required, word = 'required' }: { required: boolean | undefined; word?: string }) {
  return required ? (
    <span className={styles.required}> {word}</span>
  ) : (
    <span className={styles.optional}> optional</span>
  );
}

export function SchemaLink({ name }: { name: string }) {
  return (
    <a href={`#schema-${name}`} className={styles.schemaLink}>
      {name}
    </a>
  );
}

const variants = (schema: JsonSchema) => (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
const isObject = (schema: JsonSchema) => schema.type === 'object' && !!schema.properties;

/** A short type such as `string | null`, `array of Route`, `"EVM" | "UTXO"`. */
function TypeLabel({ schema }: { schema: JsonSchema }) {
  const name = refName(schema);
  if (name) return <SchemaLink name={name} />;
  if ('const' in schema) return <code>{JSON.stringify(schema.const)}</code>;
  if (Array.isArray(schema.enum)) return <code>{schema.enum.map((v) => JSON.stringify(v)).join(' | ')}</code>;
  if (schema.not && Object.keys(schema.not as object).length === 0) return <span>never</span>;
  const options = variants(schema);
  if (options) {
    return (
      <>
        {options.map((option, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: variants have no identity of their own
          <span key={i}>
            {i > 0 && ' | '}
            <TypeLabel schema={option} />
          </span>
        ))}
      </>
    );
  }
  if (schema.type === 'array') {
    return (
      <>
        array of <TypeLabel schema={(schema.items as JsonSchema | undefined) ?? {}} />
      </>
    );
  }
  if (schema.type === 'object' && !schema.properties && schema.additionalProperties) {
    const values = schema.additionalProperties as JsonSchema | true;
    return values === true || Object.keys(values).length === 0 ? (
      <span>object (free-form)</span>
    ) : (
      <>
        map of string to <TypeLabel schema={values} />
      </>
    );
  }
  if (typeof schema.type === 'string') return <span>{schema.type === 'number' ? 'number' : schema.type}</span>;
  return <span>JSON value</span>;
}

function constraints(schema: JsonSchema): string[] {
  const out: string[] = [];
  if (typeof schema.format === 'string') out.push(schema.format);
  else if (typeof schema.pattern === 'string') out.push(`pattern ${schema.pattern}`);
  if (schema.minLength !== undefined) out.push(`min length ${schema.minLength}`);
  if (schema.maxLength !== undefined) out.push(`max length ${schema.maxLength}`);
  // zod writes the safe-integer range on every integer; it says nothing to a reader.
  const bound = (value: unknown) => value !== undefined && Math.abs(Number(value)) !== Number.MAX_SAFE_INTEGER;
  if (bound(schema.minimum)) out.push(`≥ ${schema.minimum}`);
  if (bound(schema.maximum)) out.push(`≤ ${schema.maximum}`);
  if (schema.maxItems !== undefined) out.push(`at most ${schema.maxItems} items`);
  if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`);
  return out;
}

interface Row {
  path: string;
  depth: number;
  schema: JsonSchema;
  required: boolean;
}

type Components = Record<string, JsonSchema>;

/** An inline object, or (for an envelope's top-level fields) the named object it refers to. */
function innerObject(schema: JsonSchema, components: Components, depth: number): JsonSchema | undefined {
  if (isObject(schema)) return schema;
  const named = depth === 0 ? components[refName(schema) ?? ''] : undefined;
  return named && isObject(named) ? named : undefined;
}

/**
 * Object properties, nested objects flattened as `parent.child` (arrays as `parent[].child`); the
 * top-level fields of an envelope (`data`, `pagination`) are opened even when they are named schemas.
 */
function rows(schema: JsonSchema, components: Components, prefix = '', depth = 0): Row[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = (schema.required ?? []) as string[];
  return Object.entries(properties).flatMap(([key, property]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    const row = { path, depth, schema: property, required: required.includes(key) };
    const list = property.type === 'array';
    const inner = innerObject(list ? ((property.items ?? {}) as JsonSchema) : property, components, depth);
    return inner ? [row, ...rows(inner, components, list ? `${path}[]` : path, depth + 1)] : [row];
  });
}

/** A schema as a table of fields, or a single type line when it is not an object. */
export function SchemaView({
  schema,
  caption,
  components = {},
}: {
  schema: JsonSchema;
  caption: string;
  components?: Components;
}) {
  const name = refName(schema);
  if (name) {
    return (
      <p className={styles.schemaLine}>
        Schema: <SchemaLink name={name} />
      </p>
    );
  }
  if (!isObject(schema)) {
    return (
      <p className={styles.schemaLine}>
        Type: <TypeLabel schema={schema} />
        {typeof schema.description === 'string' && <> — {schema.description}</>}
      </p>
    );
  }
  const fieldRows = rows(schema, components);
  return (
    <>
      <Table caption={caption} headers={['Field', 'Type', 'Description']} prose>
        {fieldRows.map((row) => {
          const notes = constraints(row.schema);
          return (
            <tr key={row.path} style={{ '--depth': row.depth } as CSSProperties}>
              <td className={cell.nowrap}>
                <code>{row.path}</code>
                <Presence required={row.required} />
              </td>
              <td data-label="Type">
                <TypeLabel schema={row.schema} />
              </td>
              <td>
                {typeof row.schema.description === 'string' && <Text>{row.schema.description}</Text>}
                {notes.length > 0 && <span className={styles.constraints}> {notes.join(' · ')}</span>}
              </td>
            </tr>
          );
        })}
      </Table>
      {schema.additionalProperties === true && (
        <p className={styles.note}>Further provider-specific fields may appear; clients ignore what they do not use.</p>
      )}
    </>
  );
}
