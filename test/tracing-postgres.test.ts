import { context, trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tracing } from '../server/tracing/active';
import { startSdk } from '../server/tracing/sdk';
import { startTestApp, type TestApp } from './support/app';
import { startOtlpReceiver } from './support/otlp-receiver';

/**
 * The postgres.js wrapper (server/tracing/postgres.ts), in this process, exporting to a real OTLP/HTTP
 * receiver: a statement's span has its text with placeholders, never a bound value or a driver message.
 */
let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
let tracing: Tracing;
let t: TestApp;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  tracing = await startSdk(
    { endpoint: receiver.endpoint, sampleRatio: 1, trustedParents: [], trustProxy: false },
    'api',
  );
  t = await startTestApp();
});

afterAll(async () => {
  await t?.stop();
  await receiver?.close();
});

const SECRET = 'bc1q-a-bound-value-that-must-not-leave';

describe('SQL statements as spans', () => {
  it('records the statement with placeholders, the SQLSTATE of a failure, and no bound value', async () => {
    const tracer = trace.getTracer('test');
    const parent = tracer.startSpan('unit of work');
    await context.with(trace.setSpan(context.active(), parent), async () => {
      await t.app.sql`select ${SECRET}::text as wallet`;
      await t.app.sql`select 1 / ${0}::int`.catch(() => {});
    });
    // Outside any span: no statement span (background reads are not traced on their own).
    await t.app.sql`select ${SECRET}::text as untraced`;
    parent.end();
    await tracing.shutdown();

    const traceId = parent.spanContext().traceId;
    const statements = receiver.spans.filter((s) => s.attributes['db.system.name'] === 'postgresql');
    expect(statements.every((s) => s.traceId === traceId && s.parentSpanId === parent.spanContext().spanId)).toBe(true);
    const selected = statements.find((s) => String(s.attributes['db.query.text']).includes('as wallet'));
    expect(selected).toMatchObject({ name: 'SELECT', attributes: { 'db.query.text': 'select $1::text as wallet' } });
    const failed = statements.find((s) => String(s.attributes['db.query.text']).includes('1 /'));
    expect(failed?.attributes).toMatchObject({ 'error.type': '22012', 'db.response.status_code': '22012' });
    expect(statements.some((s) => String(s.attributes['db.query.text']).includes('untraced'))).toBe(false);
    const everything = JSON.stringify(receiver.spans);
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain('division by zero');
  });
});
