import { type ChildProcess, spawn } from 'node:child_process';
import { loadConfig } from '../server/config';

/** Runs every process of the product in the foreground and stops them all together. */
const config = loadConfig();
const processes: { name: string; command: string; args: string[] }[] = [
  ...(config.providersMode === 'simulated'
    ? [{ name: 'simulators', command: 'npx', args: ['tsx', 'server/providers/simulators-main.ts'] }]
    : []),
  { name: 'web', command: 'npx', args: ['tsx', 'server/http/web-server.ts'] },
  { name: 'worker', command: 'npx', args: ['tsx', 'workers/main.ts'] },
];

const children: ChildProcess[] = [];
let stopping = false;

function stopAll(code: number) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 5000).unref();
  Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r))))).then(() =>
    process.exit(code),
  );
}

for (const { name, command, args } of processes) {
  const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env: process.env });
  child.once('exit', (code) => {
    if (!stopping) console.error(`[run-all] ${name} exited with ${code}; stopping the rest`);
    stopAll(code ?? 1);
  });
  children.push(child);
}

process.once('SIGINT', () => stopAll(0));
process.once('SIGTERM', () => stopAll(0));

const base = `http://${config.host}:${config.port}`;
console.log(`[run-all] Switchyard web on ${base} (API ${base}/api/v1, health ${base}/api/health/ready)`);
console.log(`[run-all] worker readiness on http://${config.host}:${config.worker.healthPort}/`);
if (config.providersMode === 'simulated') {
  console.log(
    `[run-all] provider simulators on ${config.simulatorHost}:${config.simulatorBasePort}-${config.simulatorBasePort + 3}`,
  );
}
