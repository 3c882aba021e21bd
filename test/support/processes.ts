import { type ChildProcess, spawn } from 'node:child_process';

/** Runs one of the product's TypeScript entry points as its own Node process (no npx in between, so signals reach it). */
export function spawnEntry(
  entry: string,
  env: Record<string, string>,
  stdio: 'ignore' | 'pipe' = 'ignore',
): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', entry], {
    env: { ...process.env, ...env },
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
