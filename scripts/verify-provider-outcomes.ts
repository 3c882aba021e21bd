/**
 * Plays each scripted provider outcome of issue #43 through a running product's public API (quote → lock →
 * execute → track with a hash → status until final) and prints the statuses each swap showed on the way.
 * A no-route outcome must answer 200 without that provider's route and leave its circuit breaker closed.
 *
 *   npx tsx scripts/verify-provider-outcomes.ts [--api http://127.0.0.1:3000] [--sims 4700] [--timeout-ms 300000]
 *
 * METRICS_TOKEN (the API process's) lets it read the breakers from /api/metrics. Exits non-zero on any failure.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    api: { type: 'string', default: 'http://127.0.0.1:3000' },
    sims: { type: 'string', default: '4700' },
    'timeout-ms': { type: 'string', default: '300000' },
  },
});
const API = values.api as string;
const SIM_BASE_PORT = Number(values.sims);
const TIMEOUT_MS = Number(values['timeout-ms']);
const SIMULATORS = { THORCHAIN: 0, RELAY: 1, CHAINFLIP: 2, LIFI: 3 } as const;
type Provider = keyof typeof SIMULATORS;

const BTC_WALLET = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const EVM_WALLET = '0x8617e340b3d01fa5f11f306f4090fd50e238070d';
const ETH = { chain: 'ethereum', address: '0x0000000000000000000000000000000000000000' };
const BTC = { chain: 'bitcoin', address: 'native' };
const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const evmAddress = () => `0x${hex(20)}`;

async function call(method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await fetch(`${API}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

async function script(provider: Provider, key: string, outcome: string) {
  const res = await fetch(`http://127.0.0.1:${SIM_BASE_PORT + SIMULATORS[provider]}/__sim/scripts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ scripts: [{ key, outcome }] }),
  });
  if (res.status !== 200) throw new Error(`${provider} simulator refused the script ${outcome}: ${res.status}`);
}

/** Each provider's breaker as the API process reports it: 1 while open or half-open. */
async function openBreakers(): Promise<Record<string, number> | undefined> {
  const token = process.env.METRICS_TOKEN;
  if (!token) return undefined;
  const res = await fetch(`${API}/api/metrics`, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) return undefined;
  const lines = (await res.text()).split('\n').filter((l) => l.startsWith('switchyard_provider_circuit_open{'));
  return Object.fromEntries(lines.map((l) => [/provider="([^"]+)"/.exec(l)?.[1] ?? '?', Number(l.split(' ').at(-1))]));
}

interface Swap {
  name: string;
  provider: Provider;
  outcome: string;
  request: Record<string, unknown>;
  hash: string;
  expected: { status: string; substatus: string };
}

async function playSwap(swap: Swap): Promise<{ seen: string[]; problems: string[] }> {
  const problems: string[] = [];
  const quote = await call('POST', '/api/v1/quote', swap.request);
  const route = quote.body?.data?.find((r: { provider: string }) => r.provider === swap.provider);
  if (quote.status !== 200 || !route)
    return { seen: [], problems: [`quote: ${quote.status}, no ${swap.provider} route`] };
  const lock = await call('POST', '/api/v1/quote/lock', {
    ...swap.request,
    provider: swap.provider,
    routeId: route.routeId,
  });
  if (lock.status !== 200) return { seen: [], problems: [`lock: ${lock.status} ${JSON.stringify(lock.body)}`] };
  const executed = await call('POST', '/api/v1/quote/execute', { lockId: lock.body.data.lockId });
  const id = executed.body?.data?.transaction?.id;
  if (executed.status !== 200 || !id) return { seen: [], problems: [`execute: ${executed.status}`] };
  const tracked = await call('POST', '/api/v1/transaction/track', { transactionId: id, txHash: swap.hash });
  if (tracked.status !== 200) problems.push(`track: ${tracked.status} ${JSON.stringify(tracked.body)}`);

  const seen: string[] = [];
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const { status, body } = await call('GET', `/api/v1/transaction/status?transactionId=${id}`);
    const tx = body?.data?.transaction;
    const shown = status === 200 ? `${tx.status}/${tx.substatus ?? '-'}` : `HTTP ${status}`;
    if (seen.at(-1) !== shown) seen.push(shown);
    if (status === 200 && body.data.final) break;
    if (Date.now() > deadline) {
      problems.push(`not final after ${TIMEOUT_MS} ms`);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  if (seen.some((s) => s.startsWith('FAILED'))) problems.push('showed FAILED on the way');
  const last = seen.at(-1);
  const want = `${swap.expected.status}/${swap.expected.substatus}`;
  if (last !== want) problems.push(`ended ${last}, expected ${want}`);
  return { seen, problems };
}

async function playNoRoute(provider: Provider, outcome: string, request: Record<string, unknown>, key: string) {
  await script(provider, key, outcome);
  const problems: string[] = [];
  const answers: string[] = [];
  // More refusals than any breaker threshold: none of them may count as a provider failure.
  for (let i = 0; i < 8; i++) {
    const quote = await call('POST', '/api/v1/quote', request);
    const providers = (quote.body?.data ?? []).map((r: { provider: string }) => r.provider);
    answers.push(`${quote.status} [${providers.join(',')}]`);
    if (quote.status !== 200) problems.push(`quote answered ${quote.status}`);
    if (providers.includes(provider)) problems.push(`a ${provider} route was offered`);
  }
  const breakers = await openBreakers();
  if (breakers && breakers[provider] !== 0) problems.push(`${provider} breaker open (${breakers[provider]})`);
  return { answers: [...new Set(answers)], breakers, problems };
}

async function main() {
  const chainflipRecipient = evmAddress();
  const relayRequest = {
    srcChain: ETH.chain,
    srcAddress: ETH.address,
    dstChain: 'arbitrum',
    dstAddress: ETH.address,
    amount: '0.5',
    depositor: EVM_WALLET,
    recipient: evmAddress(),
  };
  const swaps: Swap[] = [
    {
      name: 'Chainflip partial-refund-ignored-first',
      provider: 'CHAINFLIP',
      outcome: 'partial-refund-ignored-first',
      request: {
        srcChain: BTC.chain,
        srcAddress: BTC.address,
        dstChain: ETH.chain,
        dstAddress: ETH.address,
        amount: '0.27',
        depositor: BTC_WALLET,
        recipient: chainflipRecipient,
      },
      hash: hex(32),
      expected: { status: 'SUCCESS', substatus: 'PARTIAL' },
    },
    {
      name: 'Relay failure-then-refund',
      provider: 'RELAY',
      outcome: 'failure-then-refund',
      request: relayRequest,
      hash: `0x${hex(32)}`,
      expected: { status: 'REFUND', substatus: 'REFUNDED' },
    },
  ];
  for (const swap of swaps) await script(swap.provider, String(swap.request.recipient), swap.outcome);

  const results = await Promise.all(swaps.map(async (swap) => ({ swap, ...(await playSwap(swap)) })));
  const noRoutes = [
    {
      name: 'THORChain no-route-pool-unavailable',
      provider: 'THORCHAIN' as const,
      outcome: 'no-route-pool-unavailable',
      recipient: evmAddress(),
      amount: '0.25',
    },
    {
      name: 'Chainflip no-route-egress-fee',
      provider: 'CHAINFLIP' as const,
      outcome: 'no-route-egress-fee',
      recipient: evmAddress(),
      amount: '0.31',
    },
  ];
  const refusals = [];
  for (const n of noRoutes) {
    const request = {
      srcChain: BTC.chain,
      srcAddress: BTC.address,
      dstChain: ETH.chain,
      dstAddress: ETH.address,
      amount: n.amount,
      depositor: BTC_WALLET,
      recipient: n.recipient,
    };
    // THORChain's refusal is keyed by the quote's destination; Chainflip's by the amount in base units (1e8).
    const key = n.provider === 'THORCHAIN' ? n.recipient : String(Math.round(Number(n.amount) * 1e8));
    refusals.push({ n, ...(await playNoRoute(n.provider, n.outcome, request, key)) });
  }

  let failed = false;
  for (const { swap, seen, problems } of results) {
    console.log(`${swap.name}: ${seen.join(' → ')}${problems.length ? `  PROBLEMS: ${problems.join('; ')}` : '  ok'}`);
    failed ||= problems.length > 0;
  }
  for (const { n, answers, breakers, problems } of refusals) {
    const breaker = breakers
      ? `breaker ${breakers[n.provider] === 0 ? 'closed' : 'OPEN'}`
      : 'breakers not read (no METRICS_TOKEN)';
    console.log(
      `${n.name}: quotes answered ${answers.join(' | ')}; ${breaker}${problems.length ? `  PROBLEMS: ${problems.join('; ')}` : '  ok'}`,
    );
    failed ||= problems.length > 0;
  }
  process.exit(failed ? 1 : 0);
}

await main();
