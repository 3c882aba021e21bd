/**
 * A server under test, in a process of its own (started by the bench over IPC):
 * - `lean`: the app's lean server (`createApiServer`) twice on one context, once as configured and
 *   once with the rate limiter removed (`{ ...app, rateLimiter: undefined }`); traced when the
 *   environment sets OTEL_EXPORTER_OTLP_ENDPOINT;
 * - `bare`: the bare node:http + postgres.js baseline.
 * Configured from the environment the bench gives it; answers `{ ready, ports }` when listening.
 */
import type { Server } from 'node:http';
import postgres from 'postgres';
import { parseConfig } from '../server/config';
import { createAppContext } from '../server/context';
import { createApiServer } from '../server/http/node-adapter';
import { listen } from '../server/lifecycle';
import { startTracing } from '../server/tracing/start';
import { createBareServer } from './bare-server';

const HOST = '127.0.0.1';
const mode = process.argv[2];
const servers: Server[] = [];
let closeResources: () => Promise<void> = async () => {};

async function startLean() {
  const config = parseConfig({ ...process.env });
  // As the lean server's entry point does: nothing at all unless OTEL_EXPORTER_OTLP_ENDPOINT is set.
  const tracing = await startTracing(config, 'api');
  const app = createAppContext(config);
  const deadline = Date.now() + 3000;
  while (app.redis.status !== 'ready' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const limited = createApiServer(app);
  const unlimited = createApiServer({ ...app, rateLimiter: undefined });
  servers.push(limited, unlimited);
  closeResources = async () => {
    await app.close();
    await tracing?.shutdown();
  };
  return { port: await listen(limited, 0, HOST), noLimitPort: await listen(unlimited, 0, HOST) };
}

async function startBare() {
  const sql = postgres(process.env.DATABASE_URL as string, {
    max: Number(process.env.DATABASE_POOL_MAX ?? 10),
    onnotice: () => {},
  });
  const server = createBareServer(sql);
  servers.push(server);
  closeResources = () => sql.end({ timeout: 2 });
  return { port: await listen(server, 0, HOST) };
}

async function shutdown() {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  await closeResources().catch(() => {});
  process.exit(0);
}

if (mode !== 'lean' && mode !== 'bare') throw new Error(`serve.ts: unknown mode ${mode}`);
const ports = mode === 'lean' ? await startLean() : await startBare();
process.on('message', (message: { type?: string; id?: number }) => {
  if (message.type === 'exit') void shutdown();
  // The CPU this server has used so far (µs), so the bench can say what one request cost it.
  if (message.type === 'cpu') process.send?.({ id: message.id, result: process.cpuUsage() });
});
process.on('disconnect', () => void shutdown());
process.send?.({ ready: true, ...ports });
