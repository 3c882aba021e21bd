import type { Server } from 'node:http';
import { inject } from 'vitest';
import { parseConfig } from '../../server/config';
import { type AppContext, createAppContext } from '../../server/context';
import { createApiServer } from '../../server/http/node-adapter';
import { listen } from '../../server/lifecycle';
import { type Simulators, simulatorEnv, startSimulators, stopSimulators } from '../../server/providers/simulators';
import { assertDocumentedResponse } from './contract';
import { cloneTemplate, testDatabaseName } from './databases';
import { deletePrefixKeys, newTestRedisPrefix, testRedisUrl } from './redis-prefixes';
import { type StopStep, stopInSteps } from './stop';

export interface TestApp {
  app: AppContext;
  /** The environment the app was configured from, for child processes that must share it. */
  env: Record<string, string>;
  sims: Simulators;
  baseUrl: string;
  databaseName: string;
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** Fetches and parses JSON; fails the test when the response is not one the OpenAPI document describes. */
  json<T = any>(path: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: T }>;
  post<T = any>(
    path: string,
    body: unknown,
    init?: RequestInit,
  ): Promise<{ status: number; headers: Headers; body: T }>;
  /** Stops it within vitest's hook timeout; its database is dropped by the run's global teardown. */
  stop(): Promise<void>;
  /** What `stop` does, for a stop that first stops something of its own (a worker, a child process). */
  stopSteps: readonly StopStep[];
}

/** A second web process sharing the first one's database, Redis prefix and simulators. */
export async function startSibling(t: TestApp, overrides: Record<string, string> = {}) {
  const app = createAppContext(parseConfig({ ...t.env, ...overrides }));
  await redisReady(app);
  const server = createApiServer(app);
  const port = await listen(server, 0, '127.0.0.1');
  return {
    app,
    baseUrl: `http://127.0.0.1:${port}`,
    stop: () => stopInSteps('sibling web', serverSteps(server, app)),
  };
}

/** Closes the HTTP server (its open streams too) and then the app's clients. */
const serverSteps = (server: Server, app: AppContext): StopStep[] => [
  [
    'http server',
    () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  ],
  ['app clients (BullMQ, Redis, Postgres)', () => app.close()],
];

/** Waits (briefly) until the web Redis client is connected, so the first request sees Redis. */
export async function redisReady(app: AppContext, timeoutMs = 2000) {
  const deadline = Date.now() + timeoutMs;
  while (app.redis.status !== 'ready' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

export function testEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    REDIS_URL: testRedisUrl(),
    CATALOG_CACHE_MS: '0',
    QUOTE_CACHE_MS: '0',
    RATE_LIMIT_CATALOG: '100000',
    RATE_LIMIT_QUOTE: '100000',
    RATE_LIMIT_EXECUTE: '100000',
    RATE_LIMIT_TRANSACTIONS: '100000',
    RATE_LIMIT_DASHBOARD: '100000',
    // Tests run many concurrent requests from loopback; test/client-limits.test.ts sets its own.
    MAX_CONNECTIONS_PER_CLIENT: '100000',
    ...overrides,
  };
}

/** A database cloned from the template, a Redis prefix of its own (deleted on stop), and the API on a loopback port. */
export async function startTestApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const redisPrefix = newTestRedisPrefix();
  const databaseName = testDatabaseName('db', redisPrefix);
  const databaseUrl = await cloneTemplate(inject('templateDatabase'), databaseName);
  // Tests about something other than the deposit: each swap's deposit is made as soon as it is opened.
  const sims = await startSimulators({ defaults: { autoDepositMs: 0 } });
  const env = testEnv({ DATABASE_URL: databaseUrl, REDIS_PREFIX: redisPrefix, ...simulatorEnv(sims), ...overrides });
  const config = parseConfig(env);
  const app = createAppContext(config);
  await redisReady(app);
  const server: Server = createApiServer(app);
  const port = await listen(server, 0, '127.0.0.1');
  const baseUrl = `http://127.0.0.1:${port}`;
  const stopSteps: StopStep[] = [
    ...serverSteps(server, app),
    ['simulators', () => stopSimulators(sims)],
    ['redis keys', () => deletePrefixKeys(config.redisPrefix)],
  ];
  const doFetch = (path: string, init?: RequestInit) => fetch(`${baseUrl}${path}`, init);
  const json = async (path: string, init?: RequestInit) => {
    const res = await doFetch(path, init);
    const text = await res.text();
    const body = text ? JSON.parse(text) : null;
    assertDocumentedResponse(init?.method ?? 'GET', path, res.status, res.headers, body);
    return { status: res.status, headers: res.headers, body };
  };
  return {
    app,
    env,
    sims,
    baseUrl,
    databaseName,
    fetch: doFetch,
    json,
    post: (path, body, init) =>
      json(path, {
        ...init,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(init?.headers as Record<string, string> | undefined) },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    stopSteps,
    stop: () => stopInSteps('test app', stopSteps),
  };
}
