import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';

/**
 * Private Postgres and Redis servers on their own loopback ports, so the fault suite can stop and
 * start them without touching the servers every other test (and the developer) uses.
 */
const PG_PORT = 5491;
const REDIS_PORT = 6391;
const PG_DIR = '/tmp/switchyard-faults/pg';
const REDIS_DIR = '/tmp/switchyard-faults/redis';

function pgBin(tool: string): string {
  const versions = readdirSync('/usr/lib/postgresql').sort();
  const latest = versions.at(-1);
  if (!latest) throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql');
  return `/usr/lib/postgresql/${latest}/bin/${tool}`;
}

const asPostgres = (args: string[]) =>
  (process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', ...args]] : [args[0], args.slice(1)]) as [
    string,
    string[],
  ];

function run(args: string[]) {
  const [cmd, rest] = asPostgres(args);
  const result = spawnSync(cmd, rest, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr || result.stdout}`);
}

export const faultPostgresUrl = (db = 'postgres') => `postgres://postgres@127.0.0.1:${PG_PORT}/${db}`;
export const faultRedisUrl = `redis://127.0.0.1:${REDIS_PORT}`;

export function initPostgres() {
  rmSync(PG_DIR, { recursive: true, force: true });
  mkdirSync(PG_DIR, { recursive: true });
  execFileSync('chown', ['-R', 'postgres:postgres', '/tmp/switchyard-faults']);
  run([pgBin('initdb'), '-D', PG_DIR, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
}

export function startPostgres() {
  run([
    pgBin('pg_ctl'),
    '-D',
    PG_DIR,
    '-o',
    `-p ${PG_PORT} -k /tmp/switchyard-faults -c listen_addresses=127.0.0.1 -c fsync=off`,
    '-l',
    `${PG_DIR}/log`,
    '-w',
    'start',
  ]);
}

export function stopPostgres(mode: 'fast' | 'immediate' = 'immediate') {
  if (existsSync(`${PG_DIR}/postmaster.pid`)) run([pgBin('pg_ctl'), '-D', PG_DIR, '-m', mode, '-w', 'stop']);
}

export async function startRedis() {
  mkdirSync(REDIS_DIR, { recursive: true });
  spawn(
    'redis-server',
    ['--port', String(REDIS_PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', REDIS_DIR],
    {
      stdio: 'ignore',
      detached: true,
    },
  ).unref();
  for (let i = 0; i < 50; i++) {
    if (spawnSync('redis-cli', ['-p', String(REDIS_PORT), 'ping'], { encoding: 'utf8' }).stdout.includes('PONG'))
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('fault Redis did not start');
}

export function stopRedis() {
  spawnSync('redis-cli', ['-p', String(REDIS_PORT), 'shutdown', 'nosave'], { encoding: 'utf8' });
}
