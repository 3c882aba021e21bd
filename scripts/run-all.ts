import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isPortFree, loadConfigOrExit, PortInUseError } from '../server/lifecycle';

/**
 * Runs every process of the product and stops them together. A SIGTERM, SIGINT or SIGHUP is passed on
 * as SIGTERM: web and worker drain first, then the simulators they call; whatever still runs
 * SHUTDOWN_TIMEOUT_MS + KILL_MARGIN_MS after the stop began is killed. A process that exits on its own
 * stops the rest, and the runner exits non-zero. `--check-ports` only checks that every port is free.
 */
const KILL_MARGIN_MS = 2000;

interface Service {
  name: string;
  entry: string;
  ports: { port: number; host: string; setting: string }[];
  /** Stopped once the others have exited, because they call it. */
  stopsLast?: boolean;
}

const config = loadConfigOrExit('run-all');
const services: Service[] = [
  ...(config.providersMode === 'simulated'
    ? [
        {
          name: 'simulators',
          entry: 'server/providers/simulators-main',
          ports: [0, 1, 2, 3].map((i) => ({
            port: config.simulatorBasePort + i,
            host: config.simulatorHost,
            setting: 'SIMULATOR_BASE_PORT',
          })),
          stopsLast: true,
        },
      ]
    : []),
  { name: 'web', entry: 'server/http/web-server', ports: [{ port: config.port, host: config.host, setting: 'PORT' }] },
  {
    name: 'worker',
    entry: 'workers/main',
    ports: config.worker.healthPort
      ? [{ port: config.worker.healthPort, host: config.host, setting: 'WORKER_HEALTH_PORT' }]
      : [],
  },
];

const taken = [];
for (const { port, host, setting } of services.flatMap((s) => s.ports)) {
  if (!(await isPortFree(port, host))) taken.push(new PortInUseError(port, setting));
}
for (const error of taken) console.error(`[run-all] ${error.message}`);
if (taken.length > 0) process.exit(1);
if (process.argv.includes('--check-ports')) process.exit(0);

// Compiled (dist/scripts/run-all.js) it runs the compiled processes; from source (through tsx) the sources.
const compiled = import.meta.url.endsWith('.js');
const root = fileURLToPath(new URL(compiled ? '../..' : '..', import.meta.url));
const nodeArgs = (entry: string) =>
  compiled ? [`${root}dist/${entry}.js`] : ['--import', 'tsx', `${root}${entry}.ts`];

const running = new Map<ChildProcess, Service>();
let stopping = false;
let lastStopped = false;
let exitCode = 0;

/** Each process leads its own process group, so a kill also reaches anything it started. */
function killGroup(child: ChildProcess) {
  try {
    process.kill(-(child.pid as number), 'SIGKILL');
  } catch {}
}

function stopTheLastOnesWhenAlone() {
  if (!stopping || lastStopped || [...running.values()].some((s) => !s.stopsLast)) return;
  lastStopped = true;
  for (const child of running.keys()) child.kill('SIGTERM');
}

function stopAll(code: number) {
  exitCode = Math.max(exitCode, code);
  if (stopping) return;
  stopping = true;
  for (const [child, service] of running) if (!service.stopsLast) child.kill('SIGTERM');
  stopTheLastOnesWhenAlone();
  const boundMs = config.shutdownTimeoutMs + KILL_MARGIN_MS;
  setTimeout(() => {
    for (const [child, service] of running) {
      console.error(`[run-all] ${service.name} still running ${boundMs} ms after the stop began; killing it`);
      killGroup(child);
    }
  }, boundMs);
}

for (const service of services) {
  const child = spawn(process.execPath, nodeArgs(service.entry), {
    cwd: root,
    env: process.env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    detached: true,
  });
  running.set(child, service);
  child.once('exit', (code, signal) => {
    running.delete(child);
    killGroup(child);
    if (!stopping) {
      console.error(`[run-all] ${service.name} exited (${code ?? signal}); stopping the rest`);
      stopAll(1);
    } else if (code !== 0) {
      console.error(`[run-all] ${service.name} exited (${code ?? signal}) while stopping`);
      exitCode = 1;
    }
    if (running.size === 0) process.exit(exitCode);
    stopTheLastOnesWhenAlone();
  });
}

for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (!stopping)
      console.log(
        `[run-all] ${signal}: stopping every process (at most ${config.shutdownTimeoutMs + KILL_MARGIN_MS} ms)`,
      );
    stopAll(0);
  });
}

const base = `http://${config.host}:${config.port}`;
console.log(`[run-all] Switchyard web on ${base} (API ${base}/api/v1, health ${base}/api/health/ready)`);
if (config.worker.healthPort)
  console.log(`[run-all] worker readiness on http://${config.host}:${config.worker.healthPort}/`);
if (config.providersMode === 'simulated') {
  console.log(
    `[run-all] provider simulators on ${config.simulatorHost}:${config.simulatorBasePort}-${config.simulatorBasePort + 3}`,
  );
}
