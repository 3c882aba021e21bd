import type { Metadata } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { Panel } from '@/app/_kit/Panel';
import text from '@/app/_kit/text.module.css';
import { getAppContext } from '@/server/context';
import { API_ROUTES } from '@/server/http/routes';
import { buildOpenApiDocument, type JsonSchema } from '@/server/openapi/document';
import styles from './docs.module.css';
import { entriesOf, tagTitle } from './document';
import { GettingStarted, RateLimits } from './GettingStarted';
import { Operation, WebhookOperation } from './Operation';
import { SchemaView } from './SchemaView';
import { Text } from './Text';

export const metadata: Metadata = {
  title: 'API reference · Switchyard',
  description: 'Every endpoint of the Switchyard swap routing API, v1 and unversioned, with a live request form.',
};

/** A heading of the page index that links to its section. */
function IndexHeading({ href, children }: { href: string; children: ReactNode }) {
  return (
    <p className={`${text.eyebrow} ${styles.navGroupTitle}`}>
      <a href={href} className={styles.groupLink}>
        {children}
      </a>
    </p>
  );
}

export default async function DocsPage() {
  // Dynamic: proxy.ts gives every page a per-request CSP nonce that Next stamps on its scripts.
  await connection();
  const doc = buildOpenApiDocument(API_ROUTES);
  const groups = doc.tags.map((tag) => ({ tag, entries: entriesOf(doc, tag.name) }));
  const schemaNames = Object.keys(doc.components.schemas).sort();

  return (
    <div className={styles.layout}>
      <nav aria-label="Endpoints" className={styles.sidebar}>
        {/* Folded on phones, so the reference starts on the first screen; always open beside it on desktops. */}
        <details className={styles.index}>
          <summary className={styles.indexSummary}>On this page</summary>
          <IndexHeading href="#getting-started">Getting started</IndexHeading>
          <IndexHeading href="#rate-limits">Rate limits</IndexHeading>
          {groups.map(({ tag, entries }) => (
            <div key={tag.name} className={styles.navGroup}>
              <IndexHeading href={`#tag-${tag.name}`}>{tagTitle(tag.name, false)}</IndexHeading>
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
          <IndexHeading href="#webhooks">Webhooks</IndexHeading>
          <IndexHeading href="#schemas">Schemas</IndexHeading>
          <IndexHeading href="/api/v1/openapi.json">OpenAPI JSON</IndexHeading>
        </details>
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

        <GettingStarted />
        <RateLimits limits={getAppContext().config.rateLimits} />

        {groups.map(({ tag, entries }) => (
          <section key={tag.name} aria-labelledby={`tag-${tag.name}`} className={styles.group}>
            <h2 id={`tag-${tag.name}`} className={styles.groupTitle}>
              {tagTitle(tag.name, true)}
            </h2>
            <p className={styles.description}>
              <Text>{tag.description}</Text>
            </p>
            {entries.map((entry) => (
              <Operation key={entry.operation.operationId} doc={doc} entry={entry} />
            ))}
          </section>
        ))}

        <section aria-labelledby="webhooks" className={styles.group}>
          <h2 id="webhooks" className={styles.groupTitle}>
            Webhooks
          </h2>
          <p className={styles.description}>
            What Switchyard sends to the HTTPS endpoints you register on the dashboard (Webhooks page), signed per
            Standard Webhooks.
          </p>
          {Object.keys(doc.webhooks).map((name) => (
            <WebhookOperation key={name} doc={doc} name={name} />
          ))}
        </section>

        <section aria-labelledby="schemas" className={styles.group}>
          <h2 id="schemas" className={styles.groupTitle}>
            Schemas
          </h2>
          {schemaNames.map((name) => {
            const schema = doc.components.schemas[name] as JsonSchema;
            return (
              <Panel
                key={name}
                id={`schema-${name}`}
                headingId={`schema-${name}-title`}
                headingLevel={3}
                className={styles.schema}
                title={<span className={styles.schemaTitle}>{name}</span>}
              >
                {typeof schema.description === 'string' && (
                  <p className={styles.description}>
                    <Text>{schema.description}</Text>
                  </p>
                )}
                <SchemaView schema={schema} caption={`Fields of ${name}`} />
              </Panel>
            );
          })}
        </section>
      </main>
    </div>
  );
}
