import type { Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { type Config, ConfigError, loadConfig } from './config';
import { createLogger } from './log';

/** A process that must not start, said in one line (not a stack trace). */
export class StartRefusedError extends Error {}

export class PortInUseError extends StartRefusedError {
  constructor(
    readonly port: number,
    readonly setting?: string,
  ) {
    super(`port ${port} is in use${setting ? `; set ${setting} to another port` : ''}`);
  }
}

/** Listens and resolves with the bound port; a taken port rejects with the setting that moves it. */
export function listen(server: Server, port: number, host: string, setting?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(port, setting) : error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

export async function isPortFree(port: number, host: string): Promise<boolean> {
  const probe = createServer();
  try {
    await listen(probe, port, host);
  } catch (error) {
    if (error instanceof PortInUseError) return false;
    throw error;
  }
  await new Promise((resolve) => probe.close(resolve));
  return true;
}

/**
 * Stops accepting connections and resolves once every in-flight request is answered. Connections are
 * closed as soon as they go idle, and a request still arriving on one is answered with `Connection: close`,
 * so kept-alive clients do not hold the process for the keep-alive timeout.
 */
export function drainHttpServer(server: HttpServer, idleSweepMs = 100): Promise<void> {
  server.prependListener('request', (_req, res) => {
    res.shouldKeepAlive = false;
  });
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const sweep = setInterval(() => server.closeIdleConnections(), idleSweepMs);
  return closed.finally(() => clearInterval(sweep));
}

/** The configuration, or one line on stderr naming the invalid setting and exit code 1. */
export function loadConfigOrExit(name: string): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`[${name}] ${error.message}`);
    process.exit(1);
  }
}

export type Stop = () => Promise<void>;

/**
 * Runs one long-lived process. `start` brings it up and returns how to stop it. SIGTERM or SIGINT (or
 * the runner that started it over IPC going away) stops it once: exit 0 when the stop completes, 1 when
 * it fails or takes longer than SHUTDOWN_TIMEOUT_MS. A taken port, an invalid setting or another refusal at start is one
 * line on stderr and exit code 1, not a stack trace.
 */
export async function runService(name: string, start: (config: Config) => Promise<Stop>): Promise<void> {
  let stop: Stop | undefined;
  let stopRequested = false;
  const config = loadConfigOrExit(name);
  const log = createLogger(config.logLevel, { process: name });

  const runStop = (run: Stop) =>
    run().then(
      () => process.exit(0),
      (error) => {
        log.error({ err: error }, 'stop failed');
        process.exit(1);
      },
    );

  const requestStop = (reason: string) => {
    if (stopRequested) return;
    stopRequested = true;
    log.info({ reason, timeoutMs: config.shutdownTimeoutMs }, 'stopping: draining in-flight work');
    setTimeout(() => {
      log.error({ timeoutMs: config.shutdownTimeoutMs }, 'still draining at the shutdown timeout; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    if (stop) void runStop(stop);
  };

  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => requestStop(signal));
  if (process.send) {
    process.on('disconnect', () => requestStop('runner gone'));
    process.channel?.unref();
  }

  try {
    stop = await start(config);
  } catch (error) {
    if (!(error instanceof StartRefusedError)) throw error;
    console.error(`[${name}] ${error.message}`);
    process.exit(1);
  }
  if (stopRequested) void runStop(stop);
}
