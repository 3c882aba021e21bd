import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  type AssetSeed,
  type ChainSeed,
  assets as seedAssets,
  chains as seedChains,
} from '../../drizzle/seed/catalog-data';
import { listen } from '../lifecycle';

/** Faults a simulator can be told to produce, per kind of call. */
export const FAULTS = [
  'none',
  'slow',
  'hang',
  'error5xx',
  'malformed',
  'ratelimit',
  'noroute',
  'oversized',
  'redirect',
] as const;
export type Fault = (typeof FAULTS)[number];
export type CallKind = 'quote' | 'execute' | 'status';
export type Outcome = 'success' | 'failure' | 'refund';

export interface SimulatorConfig {
  faults: Record<CallKind, Fault>;
  /** The ending given to swaps that start (are executed or first observed) from now on. */
  outcome: Outcome;
  /** Status polls a swap takes to walk from its first state to its ending. */
  settleAfterPolls: number;
  slowMs: number;
  /** Moves every quoted output by this many basis points (negative: the market turned against the user). */
  priceShiftBps: number;
  /**
   * The simulator plays the chain: a swap waits for its deposit until one is reported (`POST /__sim/deposits`,
   * which the product sends when a client tracks a hash), or, when this is a number, until this many ms
   * after it was opened, when the simulator deposits by itself under a hash of its own. null: never by itself.
   */
  autoDepositMs: number | null;
}

/** A deposit the simulated chain saw: its transaction hash, and the swap's tracking context to find the swap by. */
export interface DepositReport {
  hash: string;
  context: Record<string, unknown>;
}

export interface SimulatorLogEntry {
  method: string;
  path: string;
  kind: CallKind | 'other';
  at: number;
  headers: Record<string, string>;
  /** The request's JSON body as received, absent without one. */
  body?: unknown;
}

export interface SimRequest {
  method: string;
  url: URL;
  body: unknown;
  headers: Record<string, string>;
  config: SimulatorConfig;
  /** The ending scripted for the first of `keys` that has one (`POST /__sim/scripts`), else the configured one. */
  outcomeFor(...keys: (string | undefined)[]): Outcome;
  /** The name scripted for the first of `keys` that has one, the provider's own outcome names included. */
  scriptedFor(...keys: (string | undefined)[]): string | undefined;
}

export interface SimResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface SimRoute {
  method: 'GET' | 'POST';
  pattern: RegExp;
  kind: CallKind | 'other';
  handle(req: SimRequest, match: RegExpMatchArray): SimResponse | Promise<SimResponse>;
  /** The provider's own answer for the `noroute` fault on this route. */
  noRoute?(req: SimRequest): SimResponse;
}

export interface RunningSimulator {
  name: string;
  url: string;
  port: number;
  server: Server;
  config: SimulatorConfig;
  log: SimulatorLogEntry[];
  configure(patch: Partial<Omit<SimulatorConfig, 'faults'>> & { faults?: Partial<Record<CallKind, Fault>> }): void;
  /** Gives the swap that names `key` (a recipient address, say) this ending, whatever the configured one. */
  script(key: string, outcome: string): void;
  /** Every outcome name `POST /__sim/scripts` takes: the kit's endings and the provider's own. */
  readonly outcomes: readonly string[];
  /** The simulated chain saw this deposit: true when a swap waiting for its deposit took it. */
  deposit(report: DepositReport): boolean;
  reset(): void;
  close(): Promise<void>;
}

export const defaultSimulatorConfig = (): SimulatorConfig => ({
  faults: { quote: 'none', execute: 'none', status: 'none' },
  outcome: 'success',
  settleAfterPolls: 3,
  slowMs: 4000,
  priceShiftBps: 0,
  autoDepositMs: null,
});

/** How a simulator starts: where it listens, and the configuration it starts with and goes back to on reset. */
export interface SimulatorOptions {
  port?: number;
  host?: string;
  /** Swaps, channels and transfers remembered at most, the oldest forgotten first (SIMULATOR_MEMORY). */
  remember?: number;
  defaults?: Partial<Omit<SimulatorConfig, 'faults'>>;
}

/** How a provider's simulator extends the kit: its own outcome names, which `POST /__sim/scripts` then takes. */
export interface SimulatorExtension {
  outcomes?: readonly string[];
}

/** The ending scripted for `key` when it is one of the provider's own `endings`, else the kit's (`outcomeFor`). */
export function endingFor<T extends string>(
  req: Pick<SimRequest, 'scriptedFor' | 'outcomeFor'>,
  endings: readonly T[],
  key: string | undefined,
): T | Outcome {
  const scripted = req.scriptedFor(key);
  return endings.includes(scripted as T) ? (scripted as T) : req.outcomeFor(key);
}

/** Whether a swap opened at `openedAt` has deposited by itself by now (see `autoDepositMs`). */
export const autoDepositDue = (openedAt: number, config: Pick<SimulatorConfig, 'autoDepositMs'>, now = Date.now()) =>
  config.autoDepositMs !== null && now - openedAt >= config.autoDepositMs;

function parseDeposit(body: unknown): DepositReport | undefined {
  const report = body as Partial<DepositReport> | undefined;
  const valid =
    typeof report?.hash === 'string' &&
    report.hash !== '' &&
    typeof report.context === 'object' &&
    report.context !== null &&
    !Array.isArray(report.context);
  return valid ? (report as DepositReport) : undefined;
}

/** An output amount after the configured market move. */
export const shiftedPrice = (amount: bigint, config: Pick<SimulatorConfig, 'priceShiftBps'>) =>
  (amount * BigInt(10_000 + Math.round(config.priceShiftBps))) / 10_000n;

const json = (res: ServerResponse, { status, body, headers }: SimResponse) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export const KIT_OUTCOMES: readonly Outcome[] = ['success', 'failure', 'refund'];
const isKitOutcome = (name: string | undefined): name is Outcome => KIT_OUTCOMES.includes(name as Outcome);
/** Scripts kept at most; the oldest go first (a long soak scripts one per swap). */
const MAX_SCRIPTS = 100_000;

/**
 * Swaps, channels and transfers a simulator remembers at most, the oldest forgotten first: a simulator
 * left running (`npm run up` for days) holds a bounded history, not every swap it ever saw. The one-hour
 * soak made about 15,000 swaps across the four providers, so the bound is hours of that traffic.
 */
export const SIMULATOR_MEMORY = 50_000;

/** `{ scripts: [{ key, outcome }] }`: every entry a non-empty key and a known outcome. */
export function parseScripts(
  body: unknown,
  outcomes: readonly string[],
): { key: string; outcome: string }[] | undefined {
  const list = (body as { scripts?: unknown } | undefined)?.scripts;
  if (!Array.isArray(list)) return undefined;
  const valid = list.every((s) => typeof s?.key === 'string' && s.key !== '' && outcomes.includes(s.outcome));
  return valid ? (list as { key: string; outcome: string }[]) : undefined;
}

/**
 * An HTTP server speaking one provider's wire format, with `/__sim/*` control endpoints for tests
 * and operators: `GET /__sim/state`, `PUT /__sim/config` (partial SimulatorConfig), `POST /__sim/reset`,
 * `POST /__sim/scripts` (`{ scripts: [{ key, outcome }] }`: per-swap endings, keyed by what the swap names),
 * `POST /__sim/deposits` (`{ hash, context }`: the simulated chain saw this deposit; 404 when no swap waits for it).
 */
export async function startSimulator(
  name: string,
  routes: SimRoute[],
  {
    port = 0,
    host = '127.0.0.1',
    defaults,
    onReset,
    onDeposit = () => false,
    outcomes: ownOutcomes = [],
  }: SimulatorOptions &
    SimulatorExtension & {
      onReset?: () => void;
      /** Finds the swap waiting for this deposit and records it; false when none does. */
      onDeposit?: (report: DepositReport) => boolean;
    } = {},
): Promise<RunningSimulator> {
  const initialConfig = (): SimulatorConfig => ({ ...defaultSimulatorConfig(), ...defaults });
  let config = initialConfig();
  const log: SimulatorLogEntry[] = [];
  const outcomes = [...KIT_OUTCOMES, ...ownOutcomes];
  const scripts = new Map<string, string>();
  const scriptedFor = (...keys: (string | undefined)[]): string | undefined => {
    for (const key of keys) {
      const scripted = key ? scripts.get(key.toLowerCase()) : undefined;
      if (scripted) return scripted;
    }
    return undefined;
  };
  const outcomeFor = (...keys: (string | undefined)[]): Outcome => {
    const scripted = scriptedFor(...keys);
    return isKitOutcome(scripted) ? scripted : config.outcome;
  };
  const hanging = new Set<ServerResponse>();

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? host}`);
    const method = req.method ?? 'GET';
    const body = await readBody(req);
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));

    if (url.pathname.startsWith('/__sim/')) {
      if (method === 'GET' && url.pathname === '/__sim/state') return json(res, { status: 200, body: { config, log } });
      if (method === 'PUT' && url.pathname === '/__sim/config') {
        simulator.configure((body ?? {}) as never);
        return json(res, { status: 200, body: { config } });
      }
      if (method === 'POST' && url.pathname === '/__sim/scripts') {
        const parsed = parseScripts(body, outcomes);
        if (!parsed) return json(res, { status: 400, body: { message: 'expected { scripts: [{ key, outcome }] }' } });
        for (const { key, outcome } of parsed) simulator.script(key, outcome);
        return json(res, { status: 200, body: { scripted: parsed.length } });
      }
      if (method === 'POST' && url.pathname === '/__sim/deposits') {
        const report = parseDeposit(body);
        if (!report) return json(res, { status: 400, body: { message: 'expected { hash, context }' } });
        return simulator.deposit(report)
          ? json(res, { status: 200, body: { seen: true } })
          : json(res, { status: 404, body: { message: 'no swap waits for this deposit' } });
      }
      if (method === 'POST' && url.pathname === '/__sim/reset') {
        simulator.reset();
        return json(res, { status: 200, body: { config } });
      }
      return json(res, { status: 404, body: { message: 'unknown control endpoint' } });
    }

    for (const route of routes) {
      if (route.method !== method) continue;
      const match = url.pathname.match(route.pattern);
      if (!match) continue;
      log.push({ method, path: `${url.pathname}${url.search}`, kind: route.kind, at: Date.now(), headers, body });
      if (log.length > 5000) log.shift();
      const fault: Fault = route.kind === 'other' ? 'none' : config.faults[route.kind];
      const simReq: SimRequest = { method, url, body, headers, config, outcomeFor, scriptedFor };
      switch (fault) {
        case 'hang':
          hanging.add(res);
          res.once('close', () => hanging.delete(res));
          return;
        case 'error5xx':
          return json(res, {
            status: 503,
            body: { error: 'service temporarily unavailable', message: 'upstream down' },
          });
        case 'ratelimit':
          return json(res, {
            status: 429,
            body: { message: 'Too many requests', errorCode: 'RATE_LIMITED' },
            headers: { 'retry-after': '30' },
          });
        case 'malformed':
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end('{"partial": [1, 2, ');
        case 'oversized':
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ padding: 'x'.repeat(3 * 1024 * 1024) }));
        case 'redirect':
          res.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' });
          return res.end();
        case 'noroute':
          if (route.noRoute) return json(res, route.noRoute(simReq));
          break;
        case 'slow':
          await new Promise((r) => setTimeout(r, config.slowMs));
          break;
      }
      try {
        return json(res, await route.handle(simReq, match));
      } catch (error) {
        return json(res, { status: 500, body: { error: (error as Error).message } });
      }
    }
    return json(res, { status: 404, body: { error: 'not found', message: `no route for ${method} ${url.pathname}` } });
  });

  const actualPort = await listen(server, port, host, 'SIMULATOR_BASE_PORT');

  const simulator: RunningSimulator = {
    name,
    url: `http://${host}:${actualPort}`,
    port: actualPort,
    server,
    get config() {
      return config;
    },
    log,
    outcomes,
    configure(patch) {
      config = { ...config, ...patch, faults: { ...config.faults, ...(patch.faults ?? {}) } };
    },
    script(key, outcome) {
      scripts.delete(key.toLowerCase());
      scripts.set(key.toLowerCase(), outcome);
      if (scripts.size > MAX_SCRIPTS) scripts.delete(scripts.keys().next().value as string);
    },
    deposit: onDeposit,
    reset() {
      config = initialConfig();
      log.length = 0;
      scripts.clear();
      onReset?.();
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return simulator;
}

/** Walks a swap through `stages` by poll count, ending on the outcome it was given when it started. */
export function stageAt<T>(stages: readonly T[], polls: number, settleAfterPolls: number): T {
  if (polls >= settleAfterPolls) return stages[stages.length - 1] as T;
  const index = Math.floor((polls / Math.max(1, settleAfterPolls)) * (stages.length - 1));
  return stages[Math.min(index, stages.length - 2)] as T;
}

// ---- Prices and asset lookup from the catalog seed: the simulators' "market".

export interface SimAsset extends AssetSeed {
  chainSeed: ChainSeed;
}

const byChain = new Map(seedChains.map((c) => [c.key, c]));
const simAssets: SimAsset[] = seedAssets.map((a) => ({ ...a, chainSeed: byChain.get(a.chain) as ChainSeed }));

export function findSimAsset(predicate: (asset: SimAsset) => boolean): SimAsset | undefined {
  return simAssets.find(predicate);
}

export function filterSimAssets(predicate: (asset: SimAsset) => boolean): SimAsset[] {
  return simAssets.filter(predicate);
}

export const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

const PRICE_SCALE = 10n ** 18n;
function scaledPrice(price: string): bigint {
  const [whole, frac = ''] = price.split('.');
  return BigInt(whole + frac.slice(0, 18).padEnd(18, '0'));
}

/** Converts base units of one asset to another at seed prices, less `feeBps`. */
export function convertAtMarket(amountBase: bigint, from: SimAsset, to: SimAsset, feeBps = 30): bigint {
  const usdScaled = (amountBase * scaledPrice(from.priceUsd)) / 10n ** BigInt(from.decimals);
  const out = (usdScaled * 10n ** BigInt(to.decimals)) / scaledPrice(to.priceUsd);
  return (out * BigInt(10_000 - feeBps)) / 10_000n;
}

export function usdOf(amountBase: bigint, asset: SimAsset): string {
  const cents = (amountBase * scaledPrice(asset.priceUsd) * 100n) / (10n ** BigInt(asset.decimals) * PRICE_SCALE);
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
}

/** A deterministic hex string from a seed, for fake hashes and ids. */
export function fakeHex(seed: string, bytes = 32): string {
  let h = 0x811c9dc5;
  let out = '';
  while (out.length < bytes * 2) {
    for (const ch of `${seed}:${out.length}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, bytes * 2);
}
