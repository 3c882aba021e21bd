import { CodeBlock } from '@/app/_kit/CodeBlock';
import { Panel } from '@/app/_kit/Panel';
import { cell, Table } from '@/app/_kit/Table';
import text from '@/app/_kit/text.module.css';
import type { JsonSchema, OpenApiParameter } from '@/server/openapi/document';
import styles from './docs.module.css';
import { type Doc, type Entry, headersOf, parametersOf, schemaOf, tryItParameters, typeText } from './document';
import { Presence, refName, SchemaLink, SchemaView } from './SchemaView';
import { Text } from './Text';
import { TryIt } from './TryIt';

function ParametersTable({ parameters, caption }: { parameters: OpenApiParameter[]; caption: string }) {
  return (
    <Table caption={caption} headers={['Name', 'In', 'Type', 'Description']} prose>
      {parameters.map((p) => (
        <tr key={`${p.in}-${p.name}`}>
          <td className={cell.nowrap}>
            <code>{p.name}</code>
            <Presence required={p.required} />
          </td>
          <td data-label="In">{p.in}</td>
          <td data-label="Type">
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
    </Table>
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

function ErrorsTable({
  doc,
  entry,
  errors,
}: {
  doc: Doc;
  entry: Entry;
  errors: [string, Entry['operation']['responses'][string]][];
}) {
  return (
    <Table
      caption={`Error statuses and codes of ${entry.method} ${entry.path}`}
      headers={['Status', <code key="code">error.code</code>, 'Notes']}
      prose
    >
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
    </Table>
  );
}

/** One endpoint: what it does, its parameters, body, response, errors, and a form that calls it. */
/** One operation's panel, titled by its method and path. */
function OperationPanel({
  id,
  method,
  path,
  children,
}: {
  id: string;
  method: Entry['method'];
  path: string;
  children: React.ReactNode;
}) {
  return (
    <Panel
      id={id}
      headingId={`${id}-title`}
      headingLevel={3}
      className={styles.operation}
      title={
        <span className={styles.operationTitle}>
          <span className={method === 'GET' ? styles.get : styles.post}>{method}</span>{' '}
          <code className={styles.path}>{path}</code>
        </span>
      }
    >
      {children}
    </Panel>
  );
}

export function Operation({ doc, entry }: { doc: Doc; entry: Entry }) {
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
    <OperationPanel id={id} method={method} path={path}>
      <p className={styles.summary}>{operation.summary}</p>
      <p className={styles.description}>
        <Text>{operation.description}</Text>
      </p>

      {parameters.length > 0 && (
        <>
          <h4 className={`${text.eyebrow} ${styles.subheading}`}>Parameters</h4>
          <ParametersTable parameters={parameters} caption={`Parameters of ${method} ${path}`} />
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
              <p className={`${text.eyebrow} ${styles.resultLabel}`}>Example</p>
              <CodeBlock>{JSON.stringify(body.example, null, 2)}</CodeBlock>
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
              <p className={`${text.eyebrow} ${styles.resultLabel}`}>Headers</p>
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
          <ErrorsTable doc={doc} entry={entry} errors={errors} />
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
    </OperationPanel>
  );
}

/** A webhook we send: its signature headers, the body the receiver gets, and what counts as delivered. */
export function WebhookOperation({ doc, name }: { doc: Doc; name: string }) {
  const webhook = doc.webhooks[name]?.post;
  if (!webhook) return null;
  const id = `webhook-${webhook.operationId}`;
  const body = webhook.requestBody?.content['application/json'];
  const answers = Object.entries(webhook.responses);
  return (
    <OperationPanel id={id} method="POST" path="your endpoint">
      <p className={styles.summary}>{webhook.summary}</p>
      <p className={styles.description}>
        <Text>{webhook.description}</Text>
      </p>
      <h4 className={`${text.eyebrow} ${styles.subheading}`}>Headers</h4>
      <ParametersTable parameters={parametersOf(doc, webhook)} caption={`Headers of the ${webhook.summary} webhook`} />
      {body && (
        <>
          <h4 className={`${text.eyebrow} ${styles.subheading}`}>Body</h4>
          <ResolvedSchema doc={doc} schema={body.schema} caption={`Body of the ${webhook.summary} webhook`} />
        </>
      )}
      <h4 className={`${text.eyebrow} ${styles.subheading}`}>Your answer</h4>
      {answers.map(([status, response]) => (
        <p key={status} className={styles.description}>
          <Text>{response.description}</Text>
        </p>
      ))}
    </OperationPanel>
  );
}
