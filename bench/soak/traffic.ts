/**
 * Integrator-like swap traffic: quote → lock → execute → (track) → status polling, across the four
 * providers and every ending the simulators can script, each swap's ending scripted by its own
 * recipient address. Locks and executes carry Idempotency-Keys and are replayed, to prove a replay
 * answers what the original did.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { getAddress } from 'viem';
import type { ProviderKey } from '../../server/config';
import { BTC_TO_ETH, USDC_ETH_TO_ARB } from '../../test/support/fixtures';
import { SOAK } from './config';
import { json, send } from './http';
import { simulatorUrls } from './processes';
import type { Recorder } from './recorder';

export type Ending = 'success' | 'failure' | 'refund' | 'partial';
export const EXPECTED_STATUS: Record<Ending, string> = {
  success: 'SUCCESS',
  failure: 'FAILED',
  refund: 'REFUND',
  partial: 'SUCCESS',
};

const FLOWS: { provider: ProviderKey; body: Record<string, unknown>; endings: Ending[] }[] = [
  { provider: 'RELAY', body: USDC_ETH_TO_ARB, endings: ['success', 'failure', 'refund'] },
  { provider: 'CHAINFLIP', body: BTC_TO_ETH, endings: ['success', 'failure', 'refund'] },
  { provider: 'THORCHAIN', body: BTC_TO_ETH, endings: ['success', 'failure', 'refund', 'partial'] },
  { provider: 'LIFI', body: USDC_ETH_TO_ARB, endings: ['success', 'failure', 'refund'] },
];
/** 0.25 BTC in satoshis: what BTC_TO_ETH deposits. */
const BTC_TO_ETH_SATS = '25000000';

/** Upstream faults the status calls see for a few seconds at a time. */
const UPSTREAM_FAULTS = ['error5xx', 'ratelimit', 'malformed', 'slow'] as const;

export interface Swap {
  provider: ProviderKey;
  ending: Ending;
  expected: string;
  lockId: string;
  transactionId?: string;
  /** The source hash reported through track, when the flow reports one. */
  hash?: string;
  /** Whether the swap's deposit was made: the only swaps that may end EXPIRED are those whose deposit never was. */
  depositMade?: boolean;
  /** The execute answered without an HTTP answer (a killed web process): the books look it up. */
  uncertain?: boolean;
  executedAt?: number;
  finalSeenAt?: number;
  /** When the last status read that still answered PENDING was sent: after the swap went final, a stale answer. */
  pendingReadAt?: number;
  finalStatus?: string;
  /** When the integrator's status polling last asked about it. */
  statusReadAt?: number;
}

export interface ReplayCheck {
  endpoint: string;
  same: boolean;
  detail?: string;
}

export interface TrafficStats {
  flowsStarted: number;
  /** Status reads that did not find a swap whose execute had answered: read-your-writes broken. */
  statusNotFound: number;
  statusNotFoundSamples: string[];
  executed: number;
  abandoned: Record<string, number>;
  upstreamFaultWindows: { provider: string; fault: string; at: number }[];
}

const randomEvm = () => getAddress(`0x${randomBytes(20).toString('hex')}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class Traffic {
  readonly swaps: Swap[] = [];
  readonly replays: ReplayCheck[] = [];
  readonly stats: TrafficStats = {
    flowsStarted: 0,
    statusNotFound: 0,
    statusNotFoundSamples: [],
    executed: 0,
    abandoned: {},
    upstreamFaultWindows: [],
  };
  private next = 0;

  constructor(
    private readonly rec: Recorder,
    private readonly webBases: string[],
  ) {}

  private base() {
    this.next += 1;
    return this.webBases[this.next % this.webBases.length] as string;
  }

  private post(path: string, body: unknown, headers: Record<string, string> = {}, base = this.base()) {
    return this.rec.request({
      method: 'POST',
      base,
      path,
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    });
  }

  private abandon(step: string) {
    this.stats.abandoned[step] = (this.stats.abandoned[step] ?? 0) + 1;
  }

  /** A replay with the same key must answer the same status and body. */
  private async replay(path: string, body: unknown, key: string, original: { status: number; text: string }) {
    const again = await this.post(path, body, { 'idempotency-key': key });
    if (again.status === 0 || again.status === 503) return;
    const same = again.status === original.status && again.text === original.text;
    this.replays.push({
      endpoint: path,
      same,
      ...(same
        ? {}
        : {
            detail: `${original.status} ${original.text.slice(0, 200)} ≠ ${again.status} ${again.text.slice(0, 200)}`,
          }),
    });
  }

  async flow(index: number) {
    const flow = FLOWS[index % FLOWS.length] as (typeof FLOWS)[number];
    const ending = flow.endings[Math.floor(index / FLOWS.length) % flow.endings.length] as Ending;
    const recipient = randomEvm();
    const body = { ...flow.body, recipient };
    this.stats.flowsStarted += 1;
    if (flow.provider !== 'THORCHAIN') {
      // Without its script the swap would end as the simulator's default, not as the books expect.
      const scripted = await send({
        method: 'POST',
        base: simulatorUrls[flow.provider],
        path: '/__sim/scripts',
        body: JSON.stringify({ scripts: [{ key: recipient, outcome: ending }] }),
        headers: { 'content-type': 'application/json' },
      });
      if (scripted.status < 200 || scripted.status >= 300) return this.abandon(`script ${scripted.status}`);
    }
    const quoted = await this.post('/api/v1/quote', body);
    if (quoted.status !== 200) return this.abandon(`quote ${quoted.status}`);

    const lockKey = randomUUID();
    const lockBody = { ...body, provider: flow.provider };
    const locked = await this.post('/api/v1/quote/lock', lockBody, { 'idempotency-key': lockKey });
    if (locked.status !== 200) return this.abandon(`lock ${locked.status}`);
    const lockId = json(locked.text)?.data?.lockId as string;
    await this.replay('/api/v1/quote/lock', lockBody, lockKey, locked);

    const swap: Swap = { provider: flow.provider, ending, expected: EXPECTED_STATUS[ending], lockId };
    const executeKey = randomUUID();
    const executed = await this.post('/api/v1/quote/execute', { lockId }, { 'idempotency-key': executeKey });
    if (executed.status === 0) {
      this.swaps.push({ ...swap, uncertain: true });
      return this.abandon('execute without an answer');
    }
    if (executed.status !== 200) return this.abandon(`execute ${executed.status}`);
    const data = json(executed.text)?.data;
    swap.transactionId = data?.transaction?.id;
    swap.executedAt = Date.now();
    this.swaps.push(swap);
    this.stats.executed += 1;
    await this.replay('/api/v1/quote/execute', { lockId }, executeKey, executed);

    // Every other flow's deposit is made by the simulated chain as soon as the swap is opened.
    swap.depositMade = flow.provider !== 'THORCHAIN';
    if (flow.provider === 'THORCHAIN') {
      swap.hash = randomBytes(32).toString('hex');
      const { depositAddress, depositMemo } = data.providerResult ?? {};
      const observed = await send({
        method: 'POST',
        base: simulatorUrls.THORCHAIN,
        path: '/__sim/thorchain/observe',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          hash: swap.hash,
          memo: depositMemo,
          toAddress: depositAddress,
          fromAsset: 'BTC.BTC',
          toAsset: 'ETH.ETH',
          amount: BTC_TO_ETH_SATS,
          outcome: ending,
        }),
      });
      swap.depositMade = observed.status === 200;
      await this.trackUntilItLands(swap);
    }
  }

  /**
   * Reports the swap's hash as a real client does: again and again through outages (no answer, 5xx,
   * 429), with a growing pause, until the service takes it or refuses it for good (another 4xx).
   */
  async trackUntilItLands(swap: Swap) {
    const giveUpAt = Date.now() + SOAK.trackRetryMs;
    for (let pause = 250; Date.now() < giveUpAt; pause = Math.min(pause * 2, 5_000)) {
      const tracked = await this.post('/api/v1/transaction/track', {
        transactionId: swap.transactionId,
        txHash: swap.hash,
      });
      const retry = tracked.status === 0 || tracked.status === 429 || tracked.status >= 500;
      if (!retry) return;
      await sleep(pause);
    }
  }

  /**
   * Swap flows in `concurrency` lanes until `deadline`, starting at most `perSecond` a second: a steady
   * load, so a process's memory at the end of the run is compared with the same traffic as after the
   * warm-up (unbounded, the flows ran eight times faster once the race and fuzz drivers had finished).
   */
  async run(deadline: number, concurrency: number, perSecond: number) {
    let index = 0;
    let nextStart = Date.now();
    const lane = async () => {
      while (Date.now() < deadline) {
        const wait = nextStart - Date.now();
        nextStart = Math.max(nextStart, Date.now()) + 1000 / perSecond;
        if (wait > 0) await sleep(Math.min(wait, deadline - Date.now()));
        if (Date.now() >= deadline) return;
        await this.flow(index++).catch((error) => this.abandon(`error ${(error as Error).message.slice(0, 60)}`));
      }
    };
    await Promise.all([
      ...Array.from({ length: concurrency }, lane),
      this.pollStatuses(deadline),
      this.upstreamFaults(deadline),
    ]);
  }

  /**
   * Polls every unsettled swap's status through the API, as an integrator's UI would: up to 50 a round,
   * those asked about longest ago first, so with more than 50 open none waits behind the rest.
   */
  async pollStatuses(deadline: number) {
    while (Date.now() < deadline) {
      const open = this.swaps
        .filter((s) => s.transactionId && !s.finalSeenAt)
        .sort((a, b) => (a.statusReadAt ?? 0) - (b.statusReadAt ?? 0));
      for (const swap of open.slice(0, 50)) {
        const readAt = Date.now();
        swap.statusReadAt = readAt;
        const res = await this.rec.request({
          method: 'GET',
          base: this.base(),
          path: `/api/v1/transaction/status?transactionId=${swap.transactionId}`,
        });
        if (res.status === 404) {
          this.stats.statusNotFound += 1;
          if (this.stats.statusNotFoundSamples.length < 20)
            this.stats.statusNotFoundSamples.push(
              `${swap.transactionId} ${Date.now() - (swap.executedAt ?? 0)} ms after execute`,
            );
        }
        const status = res.status === 200 ? json(res.text)?.data?.transaction?.status : undefined;
        if (status && status !== 'PENDING') {
          swap.finalSeenAt = Date.now();
          swap.finalStatus = status;
        } else if (status === 'PENDING') swap.pendingReadAt = readAt;
      }
      await sleep(500);
    }
  }

  /** Every 30 s, one provider's status calls fail in one of the upstream ways for 4 s. */
  async upstreamFaults(deadline: number) {
    let round = 0;
    while (Date.now() + 35_000 < deadline) {
      await sleep(30_000);
      const provider = FLOWS[round % FLOWS.length]?.provider as ProviderKey;
      const fault = UPSTREAM_FAULTS[round % UPSTREAM_FAULTS.length] as string;
      round += 1;
      const configure = (faults: Record<string, string>) =>
        send({
          method: 'PUT',
          base: simulatorUrls[provider],
          path: '/__sim/config',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ faults, slowMs: 2000 }),
        });
      this.stats.upstreamFaultWindows.push({ provider, fault, at: Date.now() });
      await configure({ status: fault });
      await sleep(4_000);
      await configure({ status: 'none' });
    }
  }
}
