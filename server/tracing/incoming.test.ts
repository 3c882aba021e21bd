import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { context, trace } from '@opentelemetry/api';
import { AlwaysOnSampler, InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../lifecycle';
import { ReleasingContextManager } from './context';
import { traceIncomingRequests } from './incoming';
import { incomingTrust } from './trust';

const manager = new ReleasingContextManager({ releaseUnheld: true });
const spans = new InMemorySpanExporter();
const provider = new TracerProvider({
  sampler: new AlwaysOnSampler(),
  spanProcessors: [new SimpleSpanProcessor({ exporter: spans })],
});
/** Whether the next request that starts a trace is kept: a test says so before each request. */
let keepNext = false;
const seen: { request: IncomingMessage; response: ServerResponse; recording: boolean }[] = [];
const server = createServer((request, response) => {
  seen.push({ request, response, recording: trace.getSpan(context.active())?.isRecording() === true });
  response.end('ok');
});
let url: string;

beforeAll(async () => {
  context.setGlobalContextManager(manager);
  traceIncomingRequests(
    provider.getTracer('incoming-test'),
    {
      trust: incomingTrust({ trustProxy: false, trustedParents: [] }),
      w3c: { inject() {}, extract: (c) => c, fields: () => [] },
      hold: () => manager.hold(),
    },
    () => keepNext,
  );
  url = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}/api/v1/transaction/status?hash=0xabc`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  context.disable();
});

async function serve(keep: boolean) {
  keepNext = keep;
  const res = await fetch(url);
  expect(await res.text()).toBe('ok');
  return seen.at(-1) as (typeof seen)[number];
}

describe('traceIncomingRequests (#45 item 4: tracing you can leave on)', () => {
  it('runs a kept request in its span and leaves a dropped one outside any', async () => {
    expect((await serve(true)).recording).toBe(true);
    expect((await serve(false)).recording).toBe(false);
  });

  it("gives a kept request's request and response no properties a dropped one's lack (one hidden class for all)", async () => {
    const dropped = await serve(false);
    const kept = await serve(true);
    expect(Reflect.ownKeys(kept.request)).toEqual(Reflect.ownKeys(dropped.request));
    expect(Reflect.ownKeys(kept.response)).toEqual(Reflect.ownKeys(dropped.response));
    expect(Object.hasOwn(kept.response, 'on')).toBe(false);
  });
});
