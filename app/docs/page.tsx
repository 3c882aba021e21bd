import type { Metadata } from 'next';
import { connection } from 'next/server';
import {
  buildOpenApiDocument,
  type JsonSchema,
  type OpenApiDocument,
  type OpenApiHeader,
  type OpenApiOperation,
  type OpenApiParameter,
  type OpenApiResponse,
} from '@/server/openapi/document';
import styles from './docs.module.css';
import { refName, SchemaLink, SchemaView } from './SchemaView';
import { Text } from './Text';
import { TryIt, type TryItParameter } from './TryIt';

export const metadata: Metadata = {
  title: 'API reference · Switchyard',
  description: 'Every endpoint of the Switchyard swap routing API, v1 and unversioned, with a live request form.',
};

type Doc = OpenApiDocument;
type Entry = { path: string; method: 'GET' | 'POST'; operation: OpenApiOperation };

const last = (ref: string) => ref.split('/').pop() ?? ref;

function parametersOf(doc: Doc, operation: OpenApiOperation): OpenApiParameter[] {
  return (operation.parameters ?? []).flatMap((p) => {
    if (!('$ref' in p)) return [p];
    const found = doc.components.parameters[last(p.$ref)];
    return found ? [found] : [];
  });
}

function headersOf(doc: Doc, response: OpenApiResponse): [string, OpenApiHeader][] {
  return Object.entries(response.headers ?? {}).flatMap(([name, h]) => {
    const found = '$ref' in h ? doc.components.headers[last(h.$ref)] : h;
    return found ? [[name, found] as [string, OpenApiHeader]] : [];
  });
}

const entriesOf = (doc: Doc, tag: string): Entry[] =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    (['get', 'post'] as const).flatMap((m) => {
      const operation = item[m];
      return operation?.tags.includes(tag) ? [{ path, method: m.toUpperCase() as Entry['method'], operation }] : [];
    }),
  );

const schemaOf = (response: OpenApiResponse | undefined) => response?.content?.['application/json'].schema;

function typeText(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return schema.enum.join(' | ');
  if (schema.type === 'array') return `array of ${typeText((schema.items as JsonSchema) ?? {})}`;
  return typeof schema.type === 'string' ? schema.type : 'any';
}

function tryItParameters(parameters: OpenApiParameter[]): TryItParameter[] {
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

function ParametersTable({ parameters, id }: { parameters: OpenApiParameter[]; id: string }) {
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table} aria-labelledby={id}>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">In</th>
            <th scope="col">Type</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {parameters.map((p) => (
            <tr key={`${p.in}-${p.name}`}>
              <td className={styles.fieldName}>
                <code>{p.name}</code>
                {p.required ? (
                  <span className={styles.required}> required</span>
                ) : (
                  <span className={styles.optional}> optional</span>
                )}
              </td>
              <td>{p.in}</td>
              <td>
                <code>{typeText(p.schema)}</code>
                {p.explode && <span className={styles.constraints}> repeatable</span>}
              </td>
              <td>
                <Text>{p.description}</Text>
                {p.schema.default !== undefined && (
                  <span className={styles.constraints}> default {String(p.schema.default)}</span>
                )}
                {p.schema.maximum !== undefined && (
                  <span className={styles.constraints}> max {String(p.schema.maximum)}</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ResolvedSchema({ doc, schema, caption }: { doc: Doc; schema: JsonSchema; caption: string }) {
  const name = refName(schema);
  const resolved = name ? doc.components.schemas[name] : undefined;
  return (
    <>
      {name && (
        <p className={styles.schemaLine}>
          Schema <SchemaLink name={name} />
        </p>
      )}
      <SchemaView schema={resolved ?? schema} caption={caption} components={doc.components.schemas} />
    </>
  );
}

function Operation({ doc, entry }: { doc: Doc; entry: Entry }) {
  const { path, method, operation } = entry;
  const id = operation.operationId;
  const parameters = parametersOf(doc, operation);
  const body = operation.requestBody?.content['application/json'];
  const ok = operation.responses['200'];
  const okSchema = schemaOf(ok);
  const errors = Object.entries(operation.responses).filter(([status]) => status !== '200');
  const errorSchema = errors.map(([, r]) => refName(schemaOf(r))).find(Boolean);
  const headers = ok ? headersOf(doc, ok) : [];

  return (
    <section id={id} aria-labelledby={`${id}-title`} className={styles.operation}>
      <h3 id={`${id}-title`} className={styles.operationTitle}>
        <span className={method === 'GET' ? styles.get : styles.post}>{method}</span>{' '}
        <code className={styles.path}>{path}</code>
      </h3>
      <p className={styles.summary}>{operation.summary}</p>
      <p className={styles.description}>
        <Text>{operation.description}</Text>
      </p>

      {parameters.length > 0 && (
        <>
          <h4 id={`${id}-params`} className={styles.subheading}>
            Parameters
          </h4>
          <ParametersTable parameters={parameters} id={`${id}-params`} />
        </>
      )}

      {body && (
        <details className={styles.details}>
          <summary className={styles.detailsSummary}>
            Request body <span className={styles.muted}>application/json</span>
          </summary>
          <ResolvedSchema doc={doc} schema={body.schema} caption={`Request body of ${method} ${path}`} />
          {body.example !== undefined && (
            <>
              <p className={styles.resultLabel}>Example</p>
              {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
              <pre tabIndex={0} className={styles.code}>
                {JSON.stringify(body.example, null, 2)}
              </pre>
            </>
          )}
        </details>
      )}

      {ok && okSchema && (
        <details className={styles.details}>
          <summary className={styles.detailsSummary}>
            Response <span className={styles.okBadge}>200</span> <span className={styles.muted}>{ok.description}</span>
          </summary>
          <ResolvedSchema doc={doc} schema={okSchema} caption={`200 response of ${method} ${path}`} />
          {headers.length > 0 && (
            <>
              <p className={styles.resultLabel}>Headers</p>
              <ul className={styles.headerList}>
                {headers.map(([name, header]) => (
                  <li key={name}>
                    <code>{name}</code>
                    {header.required ? <span className={styles.required}> always</span> : null} —{' '}
                    <Text>{header.description}</Text>
                  </li>
                ))}
              </ul>
            </>
          )}
        </details>
      )}

      {errors.length > 0 && (
        <details className={styles.details}>
          <summary className={styles.detailsSummary}>
            Errors <span className={styles.muted}>{errors.map(([status]) => status).join(', ')}</span>
          </summary>
          {errorSchema && (
            <p className={styles.schemaLine}>
              Every error answers the <SchemaLink name={errorSchema} /> envelope.
            </p>
          )}
          <div className={styles.tableWrap}>
            <table className={styles.table}>
              <caption className={styles.srOnly}>Error statuses and codes of {`${method} ${path}`}</caption>
              <thead>
                <tr>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <code>error.code</code>
                  </th>
                  <th scope="col">Notes</th>
                </tr>
              </thead>
              <tbody>
                {errors.map(([status, response]) => {
                  const extra = headersOf(doc, response)
                    .filter(([name, h]) => h.required && !['X-API-Version', 'X-Request-Id'].includes(name))
                    .map(([name]) => name);
                  return (
                    <tr key={status}>
                      <td>
                        <span className={styles.errBadge}>{status}</span>
                      </td>
                      <td>
                        {(response['x-error-codes'] ?? []).map((code) => (
                          <code key={code} className={styles.errorCode}>
                            {code}
                          </code>
                        ))}
                      </td>
                      <td>
                        {response.description.split('.')[0]}
                        {extra.length > 0 && <> — with {extra.join(', ')}</>}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </details>
      )}

      <details className={styles.details}>
        <summary className={styles.detailsSummary}>Try it</summary>
        <TryIt
          method={method}
          path={path}
          parameters={tryItParameters(parameters)}
          bodyExample={body?.example === undefined ? undefined : JSON.stringify(body.example, null, 2)}
        />
      </details>
    </section>
  );
}

export default async function DocsPage() {
  // Dynamic: proxy.ts gives every page a per-request CSP nonce that Next stamps on its scripts.
  await connection();
  const doc = buildOpenApiDocument();
  const groups = doc.tags.map((tag) => ({ tag, entries: entriesOf(doc, tag.name) }));
  const schemaNames = Object.keys(doc.components.schemas).sort();

  return (
    <>
      <a href="#main" className={styles.skipLink}>
        Skip to content
      </a>
      <header className={styles.header}>
        <div className={styles.headerInner}>
          <a href="/" className={styles.brand}>
            Switchyard
          </a>
          <nav aria-label="Main" className={styles.mainNav}>
            <a href="/" className={styles.navLink}>
              Swap
            </a>
            <a href="/docs" className={styles.navLink} aria-current="page">
              API docs
            </a>
            <a href="/api/v1/openapi.json" className={styles.navLink}>
              OpenAPI JSON
            </a>
          </nav>
        </div>
      </header>
      <div className={styles.layout}>
        <nav aria-label="Endpoints" className={styles.sidebar}>
          {groups.map(({ tag, entries }) => (
            <div key={tag.name} className={styles.navGroup}>
              <p className={styles.navGroupTitle}>
                <a href={`#tag-${tag.name}`} className={styles.groupLink}>
                  {tag.name === 'v1' ? 'v1' : tag.name === 'legacy' ? 'Unversioned' : 'Health'}
                </a>
              </p>
              <ul className={styles.sideList}>
                {entries.map(({ path, method, operation }) => (
                  <li key={operation.operationId}>
                    <a href={`#${operation.operationId}`} className={styles.sideLink}>
                      <span className={styles.navMethod}>{method}</span>
                      <span className={styles.navPath}>{path}</span>
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          ))}
          <p className={styles.navGroupTitle}>
            <a href="#schemas" className={styles.groupLink}>
              Schemas
            </a>
          </p>
        </nav>

        <main id="main" tabIndex={-1} className={styles.main}>
          <h1 className={styles.title}>{doc.info.title}</h1>
          <p className={styles.lead}>
            <Text>{doc.info.description}</Text>
          </p>
          <p className={styles.lead}>
            The machine-readable description is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI{' '}
            {doc.openapi}); generate a typed client from it with <code>openapi-typescript</code>. Every “Try it” form
            sends a real request to this deployment.
          </p>

          {groups.map(({ tag, entries }) => (
            <section key={tag.name} aria-labelledby={`tag-${tag.name}`} className={styles.group}>
              <h2 id={`tag-${tag.name}`} className={styles.groupTitle}>
                {tag.name === 'v1'
                  ? 'Versioned interface (v1)'
                  : tag.name === 'legacy'
                    ? 'Unversioned interface'
                    : 'Health'}
              </h2>
              <p className={styles.description}>
                <Text>{tag.description}</Text>
              </p>
              {entries.map((entry) => (
                <Operation key={entry.operation.operationId} doc={doc} entry={entry} />
              ))}
            </section>
          ))}

          <section aria-labelledby="schemas" className={styles.group}>
            <h2 id="schemas" className={styles.groupTitle}>
              Schemas
            </h2>
            {schemaNames.map((name) => {
              const schema = doc.components.schemas[name] as JsonSchema;
              return (
                <div key={name} id={`schema-${name}`} className={styles.schema}>
                  <h3 className={styles.schemaTitle}>{name}</h3>
                  {typeof schema.description === 'string' && (
                    <p className={styles.description}>
                      <Text>{schema.description}</Text>
                    </p>
                  )}
                  <SchemaView schema={schema} caption={`Fields of ${name}`} />
                </div>
              );
            })}
          </section>
        </main>
      </div>
    </>
  );
}
