import { createServer, type Server } from 'node:http';
import { trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../server/lifecycle';
import { createLogger } from '../server/log';
import type { Tracing } from '../server/tracing/active';
import { startSdk } from '../server/tracing/sdk';

/**
 * A collector that refuses every export, behind the whole SDK as a process starts it: the operator
 * reads why no trace arrives on the process' own log (the SDK alone says nothing without OTEL_LOG_LEVEL),
 * and the batch settings from `OTEL_BSP_*` apply.
 */
let refusing: Server;
let tracing: Tracing;
const lines: Record<string, unknown>[] = [];
/** The span names in each export the collector refused, in order. */
const exports: string[][] = [];

interface OtlpBody {
  resourceSpans: { scopeSpans: { spans: { name: string }[] }[] }[];
}

beforeAll(async () => {
  refusing = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = JSON.parse(Buffer.concat(chunks).toString()) as OtlpBody;
    exports.push(body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans.map((span) => span.name))));
    res.writeHead(400).end();
  });
  const port = await listen(refusing, 0, '127.0.0.1');
  process.env.OTEL_BSP_SCHEDULE_DELAY = '20';
  process.env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE = '2';
  tracing = await startSdk(
    // Under `/_next/`, which the incoming-request tracing skips: the collector's own requests here make no spans.
    { endpoint: `http://127.0.0.1:${port}/_next/collector`, sampleRatio: 1, trustedParents: [], trustProxy: false },
    'api',
    createLogger('info', { process: 'api' }, { write: (line: string) => lines.push(JSON.parse(line)) }),
  );
  delete process.env.OTEL_BSP_SCHEDULE_DELAY;
  delete process.env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE;
});

afterAll(async () => {
  await tracing?.shutdown(); // a second call: the SDK's shutdown happens once
  refusing?.closeAllConnections();
  await new Promise((resolve) => refusing?.close(resolve));
});

describe('an export the collector refuses', () => {
  it('is reported on the log with the collector’s answer, once for a run of failures', async () => {
    for (let i = 0; i < 3; i++) trace.getTracer('test').startSpan(`refused ${i}`).end();
    for (let tries = 0; tries < 400 && (exports.length < 2 || lines.length < 1); tries++) {
      await new Promise((r) => setTimeout(r, 25));
    }
    // OTEL_BSP_MAX_EXPORT_BATCH_SIZE=2: the first two spans go at once, on their own.
    expect(exports).toEqual([['refused 0', 'refused 1'], ['refused 2']]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, process: 'api', heldBack: 0 });
    expect(String(lines[0]?.error)).toMatch(/Bad Request|400/);
  });

  it('does not fail the stop: the last batch refused is a warning', async () => {
    trace.getTracer('test').startSpan('refused at shutdown').end();
    await expect(tracing.shutdown()).resolves.toBeUndefined();
    expect(exports.at(-1)).toEqual(['refused at shutdown']);
    // The second refusal above was held back (one line a minute); the stop's own line is not.
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ level: 40, msg: 'tracing: the last spans were not exported at shutdown' });
    expect(String(lines[1]?.error)).toMatch(/Bad Request|400/);
  });
});
