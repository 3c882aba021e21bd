import { providerCalls } from '../../drizzle/schema';
import type { Database } from '../db';
import { providerDuration, providerErrors } from './registry';

export interface ProviderMetrics {
  recordQuotes(
    outcomes: { provider: string; ok: boolean; latencyMs: number; error?: { kind: string } }[],
  ): Promise<void>;
  recordFailure(provider: string, stage: 'lock' | 'execute' | 'status'): Promise<void>;
}

type CallRow = typeof providerCalls.$inferInsert;

const FLUSH_EVERY_MS = 2000;
const MAX_BUFFER = 5000;

/**
 * Buffers provider outcomes in memory and writes them in one insert every couple of seconds, so a
 * quote fan-out costs no extra round trip. Losing a buffer on a crash loses only dashboard samples.
 */
export function createProviderMetrics(
  db: Database,
  onError: (error: unknown) => void,
): ProviderMetrics & { flush(): Promise<void>; stop(): Promise<void> } {
  let buffer: CallRow[] = [];
  const push = (row: CallRow) => {
    if (buffer.length < MAX_BUFFER) buffer.push(row);
  };
  const flush = async () => {
    if (!buffer.length) return;
    const rows = buffer;
    buffer = [];
    await db.insert(providerCalls).values(rows).catch(onError);
  };
  const timer = setInterval(() => void flush(), FLUSH_EVERY_MS);
  timer.unref();
  return {
    async recordQuotes(outcomes) {
      for (const o of outcomes) {
        const outcome = o.ok
          ? 'ok'
          : o.error?.kind === 'UNAVAILABLE'
            ? 'unavailable'
            : (o.error?.kind ?? 'error').toLowerCase();
        push({
          provider: o.provider,
          stage: 'quote',
          outcome,
          latencyMs: Math.round(o.latencyMs),
          createdAt: new Date(),
        });
        providerDuration.observe({ provider: o.provider, stage: 'quote', outcome }, o.latencyMs / 1000);
      }
    },
    async recordFailure(provider, stage) {
      push({ provider, stage, outcome: 'error', latencyMs: null, createdAt: new Date() });
      providerErrors.inc({ provider, stage });
    },
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
