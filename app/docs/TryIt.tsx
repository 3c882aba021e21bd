'use client';

import { type FormEvent, useId, useState } from 'react';
import styles from './docs.module.css';
import { Text } from './Text';

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

const pretty = (text: string) => {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};

/** Sends one request to this deployment's live API and shows the answer as received. */
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
  const id = useId();
  const [values, setValues] = useState<Record<string, string>>({});
  const [body, setBody] = useState(bodyExample ?? '');
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

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
      const text = await res.text();
      setResult({
        status: res.status,
        statusText: res.statusText,
        ms: Math.round(performance.now() - started),
        headers: [...res.headers.entries()],
        body: pretty(text),
      });
    } catch (error) {
      setResult(null);
      setFailure(error instanceof Error ? error.message : 'The request could not be sent');
    } finally {
      setPending(false);
    }
  }

  return (
    <div className={styles.tryIt}>
      <form onSubmit={send} className={styles.tryForm}>
        {parameters.map((parameter) => {
          const inputId = `${id}-${parameter.name}`;
          const hintId = `${inputId}-hint`;
          const common = {
            id: inputId,
            name: parameter.name,
            value: values[parameter.name] ?? '',
            'aria-describedby': hintId,
            className: styles.control,
          };
          return (
            <div key={parameter.name} className={styles.tryField}>
              <label htmlFor={inputId} className={styles.label}>
                <code>{parameter.name}</code>
                <span className={styles.paramIn}> {parameter.in}</span>
                {parameter.required && <span className={styles.required}> required</span>}
              </label>
              {parameter.options ? (
                <select {...common} onChange={(e) => setValues({ ...values, [parameter.name]: e.target.value })}>
                  <option value="">(not sent)</option>
                  {parameter.options.map((option) => (
                    <option key={option} value={option}>
                      {option}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  {...common}
                  type="text"
                  placeholder={parameter.placeholder}
                  autoComplete="off"
                  spellCheck={false}
                  required={parameter.required}
                  onChange={(e) => setValues({ ...values, [parameter.name]: e.target.value })}
                />
              )}
              <p id={hintId} className={styles.hint}>
                <Text>{parameter.description}</Text>
              </p>
            </div>
          );
        })}
        {method === 'POST' && (
          <div className={styles.tryField}>
            <label htmlFor={`${id}-body`} className={styles.label}>
              Request body (JSON)
            </label>
            <textarea
              id={`${id}-body`}
              className={`${styles.control} ${styles.bodyInput}`}
              value={body}
              rows={Math.min(14, Math.max(4, body.split('\n').length))}
              spellCheck={false}
              onChange={(e) => setBody(e.target.value)}
            />
          </div>
        )}
        <div>
          <button type="submit" className={styles.button} disabled={pending}>
            {pending ? 'Sending…' : `Send ${method} ${path}`}
          </button>
        </div>
      </form>
      <div aria-live="polite" className={styles.tryResult}>
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
              <span className={styles.muted}>in {result.ms} ms</span>
            </p>
            <details>
              <summary className={styles.resultHeadersSummary}>Response headers ({result.headers.length})</summary>
              {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
              <pre tabIndex={0} className={styles.code}>
                {result.headers.map(([name, value]) => `${name}: ${value}`).join('\n')}
              </pre>
            </details>
            <p className={styles.resultLabel}>Response body</p>
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
            <pre tabIndex={0} className={styles.code} data-testid="try-body">
              {result.body}
            </pre>
          </>
        )}
      </div>
    </div>
  );
}
