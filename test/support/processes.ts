import { type ChildProcess, spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { envSchema } from '../../server/config';
import { isPortFree } from '../../server/lifecycle';

/** Runs one of the product's TypeScript entry points as its own Node process (no npx in between, so signals reach it). */
const APP_SETTINGS = new Set(Object.keys(envSchema.shape));

/**
 * A child's environment: this process's, less the app's own settings, plus `env`. `npm test` exports
 * AUTH_SECRET, which the in-process app (configured from `env` alone) does not see: inherited, it
 * gave spawned processes another rate-limit hash key, so one client counted as two.
 */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = { ...process.env };
  for (const name of APP_SETTINGS) delete inherited[name];
  return { ...inherited, ...env };
}

export function spawnEntry(
  entry: string,
  env: Record<string, string>,
  stdio: 'ignore' | 'pipe' = 'ignore',
): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', entry], {
    env: childEnv(env),
    stdio: ['ignore', stdio, 'ignore'],
  });
}

/** Waits until `check` holds, polling every `intervalMs`, for at most `timeoutMs`. */
export async function waitUntil(check: () => boolean | Promise<boolean>, { timeoutMs = 20_000, intervalMs = 50 } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  return false;
}

export const httpOk = (url: string) => () =>
  fetch(url)
    .then((r) => r.ok)
    .catch(() => false);

export interface ProcessInfo {
  pid: number;
  command: string;
}

function readProc(pid: number, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
}

/** `pid` and every process below it, read from /proc. */
export function processTree(pid: number): ProcessInfo[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    const stat = /^\d+$/.test(entry) ? readProc(Number(entry), 'stat') : undefined;
    const ppid = stat ? Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) : undefined;
    if (ppid !== undefined) children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  const tree: ProcessInfo[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const next = queue.shift() as number;
    const command = readProc(next, 'cmdline')?.replaceAll('\0', ' ').trim();
    if (command !== undefined) tree.push({ pid: next, command });
    queue.push(...(children.get(next) ?? []));
  }
  return tree;
}

/** Running, as opposed to gone or a zombie (which runs nothing and holds no port). */
export function isRunning(pid: number): boolean {
  const stat = readProc(pid, 'stat');
  return stat !== undefined && stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
}

/** The exit code (or signal name) of `child` once it exits, or undefined when it is still running after `timeoutMs`. */
export function exitWithin(child: ChildProcess, timeoutMs: number): Promise<number | string | undefined> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve(child.exitCode ?? child.signalCode ?? undefined);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? signal ?? undefined);
    });
  });
}

/** Stops `child` as a runner would: SIGTERM, then SIGKILL if it is still running `graceMs` later. */
export async function stopChild(child: ChildProcess | undefined, graceMs = 20_000): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  if ((await exitWithin(child, graceMs)) === undefined) child.kill('SIGKILL');
}

/**
 * The kernel's ephemeral range: every outgoing connection's source port comes from it, so a port picked
 * there and bound a moment later can meanwhile be taken by a client (a busy machine, a soak beside the
 * suite: CI run 8's simulators found their port taken that way). Test ports come from below it.
 */
function ephemeralLow(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
}
/** A Redis Cluster node also binds its bus on its port + 10,000: that one stays below the ephemeral range too. */
const CLUSTER_BUS_OFFSET = 10_000;
const PICK_FROM = 10_000;
const PICK_BELOW = Math.max(PICK_FROM + 4_096, ephemeralLow() - CLUSTER_BUS_OFFSET);

/** A loopback port free a moment ago, below the ephemeral range, and not in `taken`. */
export async function freePort(taken: readonly number[] = []): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = PICK_FROM + randomInt(PICK_BELOW - PICK_FROM);
    if (!taken.includes(port) && (await isPortFree(port, '127.0.0.1'))) return port;
  }
  throw new Error('no free port found');
}

/** The first of `count` consecutive loopback ports that were free a moment ago, none of them in `taken`. */
export async function freePortRange(count: number, taken: readonly number[] = []): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = await freePort(taken);
    const others = Array.from({ length: count - 1 }, (_, i) => first + i + 1);
    const rest = await Promise.all(others.map((port) => isPortFree(port, '127.0.0.1')));
    if (first + count <= 65_535 && rest.every(Boolean) && !others.some((port) => taken.includes(port))) return first;
  }
  throw new Error(`no ${count} consecutive free ports found`);
}

/**
 * Ports for a whole product run, picked one after another and bound only later by the product: one per
 * name, and `range` the first of `rangeLength` consecutive ones, all different.
 */
export async function productPorts<Name extends string>(
  names: readonly Name[],
  rangeLength: number,
): Promise<Record<Name | 'range', number>> {
  const picked: number[] = [];
  for (const _ of names) picked.push(await freePort(picked));
  const range = await freePortRange(rangeLength, picked);
  return Object.fromEntries([...names.map((name, i) => [name, picked[i]]), ['range', range]]);
}
