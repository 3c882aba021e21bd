import { CodeBlock } from '@/app/_kit/CodeBlock';
import type { Config } from '@/server/config';
import { QUOTE_EXAMPLE } from '@/server/openapi/operations';
import styles from './docs.module.css';

const json = (value: unknown) => JSON.stringify(value, null, 2);
const curl = (method: 'GET' | 'POST', path: string, body?: unknown) =>
  method === 'GET'
    ? `curl -s "$SWITCHYARD${path}"`
    : `curl -s -X POST "$SWITCHYARD${path}" \\\n  -H 'content-type: application/json' \\\n  -d '${JSON.stringify(body)}'`;

const STEPS = [
  {
    id: 'quote',
    title: '1. Quote: ask every provider for a price',
    text: 'Routes come back best first. Each names its provider and routeId; wallets are optional here.',
    curl: curl('POST', '/api/v1/quote', QUOTE_EXAMPLE),
  },
  {
    id: 'lock',
    title: '2. Lock: hold one route’s price',
    text: 'Send the quote fields again with the route’s provider and routeId, and both wallets. The answer has a lockId and ttlMs: execute before it runs out.',
    curl: curl('POST', '/api/v1/quote/lock', { ...QUOTE_EXAMPLE, provider: 'CHAINFLIP', routeId: '<routeId>' }),
  },
  {
    id: 'execute',
    title: '3. Execute: get what the wallet signs or where to deposit',
    text: 'Pass the lockId. exec.meta.executionMode says what to do: sign exec (evm-calldata, ton-messages, solana-instructions) or send the deposit to exec.meta.depositAddress with its memo. transaction.id identifies the swap from now on.',
    curl: curl('POST', '/api/v1/quote/execute', { lockId: '<lockId>' }),
  },
  {
    id: 'track',
    title: '4. Track: hand over the hash once it is sent',
    text: 'Tracking starts at once instead of waiting for the provider to notice the deposit.',
    curl: curl('POST', '/api/v1/transaction/track', { transactionId: '<transactionId>', txHash: '<hash>' }),
  },
  {
    id: 'status',
    title: '5. Status: follow it until it is final',
    text: 'PENDING until SUCCESS, FAILED or REFUND; final is true then. Poll every few seconds.',
    curl: curl('GET', '/api/v1/transaction/status?transactionId=<transactionId>'),
  },
];

const TYPESCRIPT = `const BASE = 'https://switchyard.example';

async function call<T>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(BASE + path, body === undefined ? {} : {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(\`\${json.error.code}: \${json.error.message}\`);
  return json.data;
}

const request = ${json(QUOTE_EXAMPLE).replace(/\n/g, '\n')};
const [best] = await call<Route[]>('/api/v1/quote', request);
const lock = await call<LockedQuote>('/api/v1/quote/lock', { ...request, provider: best.provider, routeId: best.routeId });
const { exec, transaction } = await call<ExecuteResult>('/api/v1/quote/execute', { lockId: lock.lockId });

const hash = await sendWithYourWallet(exec); // your wallet library signs exec
await call('/api/v1/transaction/track', { transactionId: transaction.id, txHash: hash });

let status;
do {
  await new Promise((r) => setTimeout(r, 5_000));
  status = await call<{ transaction: Transaction; final: boolean }>(
    \`/api/v1/transaction/status?transactionId=\${transaction.id}\`,
  );
} while (!status.final);`;

/** The whole flow, quote to status, with curl for each step and the same in TypeScript. */
export function GettingStarted() {
  return (
    <section aria-labelledby="getting-started" className={styles.group}>
      <h2 id="getting-started" className={styles.groupTitle}>
        Getting started
      </h2>
      <p className={styles.description}>
        A swap is five calls. Set <code>SWITCHYARD</code> to this deployment’s address, then follow the steps; the “Try
        it” forms below carry each answer’s ids into the next step for you.
      </p>
      {STEPS.map((step) => (
        <div key={step.id} className={styles.guideStep}>
          <h3 className={styles.guideTitle}>{step.title}</h3>
          <p className={styles.description}>{step.text}</p>
          <CodeBlock>{step.curl}</CodeBlock>
        </div>
      ))}
      <h3 className={styles.guideTitle}>The same in TypeScript</h3>
      <p className={styles.description}>
        Types such as <code>Route</code> and <code>ExecuteResult</code> come from the OpenAPI document (
        <code>npx openapi-typescript /api/v1/openapi.json</code>).
      </p>
      <CodeBlock>{TYPESCRIPT}</CodeBlock>
    </section>
  );
}

const CLASSES: { key: keyof Config['rateLimits']['perClient']; label: string; endpoints: string }[] = [
  { key: 'catalog', label: 'Catalog', endpoints: 'chains, assets, sources, referral, the OpenAPI document' },
  { key: 'quote', label: 'Quotes', endpoints: 'quote' },
  { key: 'execute', label: 'Swaps', endpoints: 'lock, execute, track' },
  { key: 'transactions', label: 'Transactions', endpoints: 'status, history' },
];

/** The per-client limits this deployment runs with, and how a client should behave at them. */
export function RateLimits({ limits }: { limits: Config['rateLimits'] }) {
  return (
    <section aria-labelledby="rate-limits" className={styles.group}>
      <h2 id="rate-limits" className={styles.groupTitle}>
        Rate limits
      </h2>
      <p className={styles.description}>
        Each client address has a budget per class of endpoint, over a window of {limits.windowSeconds} seconds:
      </p>
      <ul className={styles.description}>
        {CLASSES.map((c) => (
          <li key={c.key}>
            <strong>{c.label}</strong> ({c.endpoints}): {limits.perClient[c.key]} requests
          </li>
        ))}
      </ul>
      <p className={styles.description}>
        Every answer carries <code>X-RateLimit-Limit</code>, <code>X-RateLimit-Remaining</code> and{' '}
        <code>X-RateLimit-Reset</code> (seconds), and the IETF <code>RateLimit</code> / <code>RateLimit-Policy</code>{' '}
        fields. Over the limit the answer is <code>429 RATE_LIMITED</code> with <code>Retry-After</code> in seconds:
        wait that long before the next request rather than retrying at once.
      </p>
    </section>
  );
}
