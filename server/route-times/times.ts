import type { AppContext } from '../context';
import { perKey } from '../per-key';
import { addCounts, percentile, ROUTE_SECONDS } from '../rollups/histogram';
import { DAY_MS } from '../rollups/window';

/** What a quote route and the lock answer carry beside the provider's `estimatedTime`. */
export interface ObservedTime {
  p50Seconds: number;
  p90Seconds: number;
  /** Settled swaps in the window on the route (or asset pair) the figures come from. */
  samples: number;
  /** `observed`: our own settled swaps; `provider`: too few of them, the provider's estimate instead. */
  source: 'observed' | 'provider';
}

export interface Percentiles {
  p50Seconds: number;
  p90Seconds: number;
  samples: number;
}

interface Cell {
  samples: number;
  execute: Map<number, number>;
  deposit: Map<number, number>;
  depositSamples: number;
}

/** The window's times, per provider × chains and per provider × asset pair, read once per `cacheMs`. */
export interface RouteTimes {
  readAt: number;
  routes: Map<string, Cell>;
  pairs: Map<string, Cell>;
  minSamples: number;
}

export interface RouteKey {
  provider: string;
  srcChain: string;
  dstChain: string;
  srcAssetId: number | null;
  dstAssetId: number | null;
}

const routeKey = (r: Pick<RouteKey, 'provider' | 'srcChain' | 'dstChain'>) =>
  `${r.provider}|${r.srcChain}|${r.dstChain}`;
const pairKey = (r: RouteKey) => `${routeKey(r)}|${r.srcAssetId ?? 0}|${r.dstAssetId ?? 0}`;

/** The first day (UTC) of the window ending on `now`'s day: `windowDays` whole days, today included. */
export const windowStart = (now: Date, windowDays: number) =>
  new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - (windowDays - 1) * DAY_MS);

interface DailyRow {
  provider: string;
  src_chain: string;
  dst_chain: string;
  src_asset_id: number;
  dst_asset_id: number;
  swaps: string;
  execute_to_final: Record<string, number>;
  deposit_to_final: Record<string, number>;
}

const emptyCell = (): Cell => ({ samples: 0, execute: new Map(), deposit: new Map(), depositSamples: 0 });

function addRow(cells: Map<string, Cell>, key: string, row: DailyRow) {
  const cell = cells.get(key) ?? emptyCell();
  cell.samples += Number(row.swaps);
  addCounts(cell.execute, row.execute_to_final);
  addCounts(cell.deposit, row.deposit_to_final);
  for (const n of Object.values(row.deposit_to_final ?? {})) cell.depositSamples += Number(n);
  cells.set(key, cell);
}

/** Reads the window's daily rows (a few per route and day) and sums them per route and per pair. */
export async function readRouteTimes(ctx: Pick<AppContext, 'sql' | 'config'>, now = new Date()): Promise<RouteTimes> {
  const since = windowStart(now, ctx.config.routeTimes.windowDays);
  const rows = await ctx.sql<DailyRow[]>`
    select provider, src_chain, dst_chain, src_asset_id, dst_asset_id, swaps::text as swaps, execute_to_final,
           deposit_to_final
    from route_time_daily where day >= ${since.toISOString()}::timestamptz`;
  const routes = new Map<string, Cell>();
  const pairs = new Map<string, Cell>();
  for (const row of rows) {
    const route = { provider: row.provider, srcChain: row.src_chain, dstChain: row.dst_chain };
    addRow(routes, routeKey(route), row);
    addRow(pairs, pairKey({ ...route, srcAssetId: row.src_asset_id, dstAssetId: row.dst_asset_id }), row);
  }
  return { readAt: now.getTime(), routes, pairs, minSamples: ctx.config.routeTimes.minSamples };
}

interface Kept {
  times?: RouteTimes;
  reading?: Promise<RouteTimes>;
}
const kept = perKey((_ctx: object): Kept => ({}));

/**
 * The route times this process holds, read again once older than `cacheMs`: while a newer read runs,
 * callers get the one held (quotes never wait on it once the first read is done).
 */
export async function routeTimes(ctx: Pick<AppContext, 'sql' | 'config'>, now = new Date()): Promise<RouteTimes> {
  const state = kept(ctx);
  const fresh = state.times && now.getTime() - state.times.readAt < ctx.config.routeTimes.cacheMs;
  if (state.times && fresh) return state.times;
  state.reading ??= readRouteTimes(ctx, now).finally(() => {
    state.reading = undefined;
  });
  const reading = state.reading.then((times) => {
    state.times = times;
    return times;
  });
  if (state.times) {
    reading.catch(() => {});
    return state.times;
  }
  return reading;
}

const round = (seconds: number | null) => Math.round(seconds ?? 0);

/** Per histogram of a read: a read's cells are complete before any lookup, and a new read makes new ones. */
const percentilesOfRead = new WeakMap<Map<number, number>, Percentiles>();

/** A quote looks up each of its routes: the percentiles are worked out once per cell and read, not per quote. */
function percentilesOf(counts: Map<number, number>, samples: number): Percentiles {
  const known = percentilesOfRead.get(counts);
  if (known?.samples === samples) return known;
  const worked = {
    // A bucket is up to a minute wide (5 s at first): the p50 reads each swap as its bucket's middle, and the
    // p90, a promise ("usually done by"), as its bucket's end, so 90 % of the swaps counted took no longer.
    p50Seconds: round(percentile(ROUTE_SECONDS, counts, 0.5, 'middle')),
    p90Seconds: round(percentile(ROUTE_SECONDS, counts, 0.9, 'upper')),
    samples,
  };
  percentilesOfRead.set(counts, worked);
  return worked;
}

/** The asset pair's cell when it has enough swaps, else the route's (provider × chains). */
function cellFor(times: RouteTimes, key: RouteKey): { cell: Cell | undefined; enough: boolean } {
  const pair = times.pairs.get(pairKey(key));
  if (pair && pair.samples >= times.minSamples) return { cell: pair, enough: true };
  const route = times.routes.get(routeKey(key));
  return { cell: route, enough: (route?.samples ?? 0) >= times.minSamples };
}

/**
 * Execute → final on this route: observed when it has enough settled swaps, else the provider's estimate
 * (when it gives one, `samples` then counting what we have), else null.
 */
export function observedTime(times: RouteTimes, key: RouteKey, providerEstimateSeconds: number): ObservedTime | null {
  const { cell, enough } = cellFor(times, key);
  if (cell && enough) return { ...percentilesOf(cell.execute, cell.samples), source: 'observed' };
  if (!(providerEstimateSeconds > 0)) return null;
  const estimate = Math.round(providerEstimateSeconds);
  return { p50Seconds: estimate, p90Seconds: estimate, samples: cell?.samples ?? 0, source: 'provider' };
}

/** Deposit seen → final on this route, only when observed on enough swaps. */
export function observedFromDeposit(times: RouteTimes, key: RouteKey): Percentiles | null {
  const { cell, enough } = cellFor(times, key);
  if (!cell || !enough || cell.depositSamples < times.minSamples) return null;
  return { ...percentilesOf(cell.deposit, cell.depositSamples) };
}
