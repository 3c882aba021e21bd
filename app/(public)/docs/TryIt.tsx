'use client';

import { type FormEvent, useEffect, useState } from 'react';
import { Button } from '@/app/_kit/Button';
import { CodeBlock } from '@/app/_kit/CodeBlock';
import { controlClass, Field } from '@/app/_kit/Field';
import text from '@/app/_kit/text.module.css';
import { type Carried, carriedFieldsIn, carryFrom, fillBody, useCarried } from './carried';
import docs from './docs.module.css';
import { Text } from './Text';
import styles from './try-it.module.css';

export interface TryItParameter {
  name: string;
  in: 'query' | 'header';
  required: boolean;
  description: string;
  options?: string[];
  placeholder?: string;
}

interface Result {
  status: number;
  statusText: string;
  ms: number;
  headers: [string, string][];
  body: string;
}

const pretty = (raw: string) => {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
};

/** Sends one request to this deployment's live API and shows the answer as received. */
/** An event stream stays open until the swap is final: show its first status event, then let it go. */
async function firstStatusEvent(res: Response): Promise<string> {
  const reader = res.body?.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (reader && !/event: status\n[^\n]*\n\n/.test(text)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader?.cancel();
  return `${text}\n: (the stream continues until the status is final; follow it with EventSource)`;
}

export function TryIt({
  method,
  path,
  parameters,
  bodyExample,
}: {
  method: 'GET' | 'POST';
  path: string;
  parameters: TryItParameter[];
  bodyExample?: string;
}) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [body, setBody] = useState(bodyExample ?? '');
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const carried = useCarried();
  const [filled, setFilled] = useState<string[]>([]);

  // Ids from an earlier step's answer go into this form's matching parameters and body fields.
  useEffect(() => {
    const names = Object.keys(carried) as (keyof Carried)[];
    // The unversioned interface names its ids differently (quoteId) and takes no routeId.
    if (!names.length || !path.startsWith('/api/v1/')) return;
    const params = parameters.filter((p) => names.includes(p.name as keyof Carried)).map((p) => p.name);
    setValues((current) => ({
      ...current,
      ...Object.fromEntries(params.map((name) => [name, carried[name as keyof Carried] ?? ''])),
    }));
    setBody((current) => fillBody(current, carried));
    setFilled([...new Set([...params, ...carriedFieldsIn(bodyExample, carried)])]);
  }, [carried, parameters, bodyExample, path]);

  async function send(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setFailure(null);
    const search = new URLSearchParams();
    const headers: Record<string, string> = {};
    for (const parameter of parameters) {
      const value = values[parameter.name]?.trim();
      if (!value) continue;
      if (parameter.in === 'header') headers[parameter.name] = value;
      else search.append(parameter.name, value);
    }
    if (method === 'POST') headers['content-type'] = 'application/json';
    const started = performance.now();
    try {
      const res = await fetch(`${path}${search.size ? `?${search}` : ''}`, {
        method,
        headers,
        ...(method === 'POST' ? { body } : {}),
      });
      const raw = res.headers.get('content-type')?.startsWith('text/event-stream')
        ? await firstStatusEvent(res)
        : await res.text();
      if (res.ok) {
        try {
          carryFrom(JSON.parse(raw));
        } catch {
          // Not JSON (a stream's first event is shown as is): nothing to carry.
        }
      }
      setResult({
        status: res.status,
        statusText: res.statusText,
        ms: Math.round(performance.now() - started),
        headers: [...res.headers.entries()],
        body: pretty(raw),
      });
    } catch (error) {
      setResult(null);
      setFailure(error instanceof Error ? error.message : 'The request could not be sent');
    } finally {
      setPending(false);
    }
  }

  const setValue = (name: string, value: string) => setValues({ ...values, [name]: value });
  return (
    <div className={styles.tryIt}>
      <form onSubmit={send} className={styles.form}>
        {parameters.map((parameter) => (
          <Field
            key={parameter.name}
            label={
              <>
                <code>{parameter.name}</code>
                <span className={styles.paramIn}> {parameter.in}</span>
                {parameter.required && <span className={docs.required}> required</span>}
              </>
            }
            hint={<Text>{parameter.description}</Text>}
          >
            {parameter.options ? (
              <select
                name={parameter.name}
                className={controlClass()}
                value={values[parameter.name] ?? ''}
                onChange={(e) => setValue(parameter.name, e.target.value)}
              >
                <option value="">(not sent)</option>
                {parameter.options.map((option) => (
                  <option key={option} value={option}>
                    {option}
                  </option>
                ))}
              </select>
            ) : (
              <input
                name={parameter.name}
                className={controlClass()}
                value={values[parameter.name] ?? ''}
                type="text"
                placeholder={parameter.placeholder}
                autoComplete="off"
                spellCheck={false}
                required={parameter.required}
                onChange={(e) => setValue(parameter.name, e.target.value)}
              />
            )}
          </Field>
        ))}
        {method === 'POST' && (
          <Field label="Request body (JSON)">
            <textarea
              className={controlClass({ mono: true })}
              value={body}
              rows={Math.min(14, Math.max(4, body.split('\n').length))}
              spellCheck={false}
              onChange={(e) => setBody(e.target.value)}
            />
          </Field>
        )}
        {filled.length > 0 && (
          <p className={docs.muted} data-testid="try-carried">
            Filled in from an earlier answer: {filled.join(', ')}.
          </p>
        )}
        <div>
          <Button type="submit" variant="primary" disabled={pending}>
            {pending ? 'Sending…' : `Send ${method} ${path}`}
          </Button>
        </div>
      </form>
      <div aria-live="polite" className={styles.result}>
        {failure && (
          <p role="alert" className={styles.failure}>
            {failure}
          </p>
        )}
        {result && (
          <>
            <p className={styles.resultStatus}>
              Status{' '}
              <strong data-testid="try-status" className={result.status < 400 ? styles.ok : styles.bad}>
                {result.status} {result.statusText}
              </strong>{' '}
              <span className={docs.muted}>in {result.ms} ms</span>
            </p>
            <details>
              <summary className={styles.resultHeadersSummary}>Response headers ({result.headers.length})</summary>
              <CodeBlock>{result.headers.map(([name, value]) => `${name}: ${value}`).join('\n')}</CodeBlock>
            </details>
            <p className={`${text.eyebrow} ${docs.resultLabel}`}>Response body</p>
            <CodeBlock testId="try-body">{result.body}</CodeBlock>
          </>
        )}
      </div>
    </div>
  );
}
