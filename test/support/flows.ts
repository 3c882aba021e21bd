import { expect } from 'vitest';
import type { TestApp } from './app';

/** Quote → lock → execute through the public API; returns the execute result's data. */
export async function executeSwap(t: TestApp, body: Record<string, unknown>, provider: string) {
  const locked = await t.post('/api/v1/quote/lock', { ...body, provider });
  expect(locked.status, JSON.stringify(locked.body)).toBe(200);
  const executed = await t.post('/api/v1/quote/execute', { lockId: locked.body.data.lockId });
  expect(executed.status, JSON.stringify(executed.body)).toBe(200);
  return executed.body.data;
}

/** Polls the status endpoint until `predicate` holds, within a bounded number of tries. */
export async function waitForStatus(
  t: TestApp,
  transactionId: string,
  predicate: (tx: any) => boolean,
  { timeoutMs = 15_000, intervalMs = 100 } = {},
) {
  const deadline = Date.now() + timeoutMs;
  let last: any;
  while (Date.now() < deadline) {
    const res = await t.json(`/api/v1/transaction/status?transactionId=${transactionId}`);
    last = res.body?.data;
    if (res.status === 200 && predicate(last.transaction)) return last;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`status of ${transactionId} never matched; last ${JSON.stringify(last)}`);
}

export const randomHex = (bytes = 32) =>
  Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('');
