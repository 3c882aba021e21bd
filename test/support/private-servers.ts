import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';

/**
 * Private Postgres and Redis servers on their own loopback ports and data directories, so a suite
 * (the fault tests, the soak) can stop, kill and restart them without touching the servers every
 * other test (and the developer) uses.
 */
export interface PrivateServers {
  postgresUrl(db?: string): string;
  redisUrl: string;
  pgPort: number;
  redisPort: number;
  initPostgres(): void;
  startPostgres(): void;
  stopPostgres(mode?: 'fast' | 'immediate'): void;
  startRedis(): Promise<void>;
  stopRedis(): void;
  /** SIGKILLs the Redis server (no shutdown handshake), for a crash rather than a restart. */
  killRedis(): void;
}

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

function runAsPostgres(args: string[]) {
  const [cmd, rest] = asPostgres(args);
  const result = spawnSync(cmd, rest, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr || result.stdout}`);
}

const redisCli = (port: number, ...args: string[]) =>
  spawnSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' });

export function privateServers({ root, pgPort, redisPort }: { root: string; pgPort: number; redisPort: number }) {
  const pgDir = `${root}/pg`;
  const redisDir = `${root}/redis`;
  const servers: PrivateServers = {
    pgPort,
    redisPort,
    postgresUrl: (db = 'postgres') => `postgres://postgres@127.0.0.1:${pgPort}/${db}`,
    redisUrl: `redis://127.0.0.1:${redisPort}`,

    initPostgres() {
      rmSync(pgDir, { recursive: true, force: true });
      mkdirSync(pgDir, { recursive: true });
      execFileSync('chown', ['-R', 'postgres:postgres', root]);
      runAsPostgres([pgBin('initdb'), '-D', pgDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    },

    startPostgres() {
      runAsPostgres([
        pgBin('pg_ctl'),
        '-D',
        pgDir,
        '-o',
        `-p ${pgPort} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300`,
        '-l',
        `${pgDir}/log`,
        '-w',
        'start',
      ]);
    },

    stopPostgres(mode = 'immediate') {
      if (existsSync(`${pgDir}/postmaster.pid`))
        runAsPostgres([pgBin('pg_ctl'), '-D', pgDir, '-m', mode, '-w', 'stop']);
    },

    async startRedis() {
      mkdirSync(redisDir, { recursive: true });
      spawn(
        'redis-server',
        ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', redisDir],
        { stdio: 'ignore', detached: true },
      ).unref();
      for (let i = 0; i < 50; i++) {
        if (redisCli(redisPort, 'ping').stdout.includes('PONG')) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`private Redis on ${redisPort} did not start`);
    },

    stopRedis() {
      redisCli(redisPort, 'shutdown', 'nosave');
    },

    killRedis() {
      const pid = Number(redisCli(redisPort, 'info', 'server').stdout.match(/process_id:(\d+)/)?.[1]);
      if (pid) process.kill(pid, 'SIGKILL');
    },
  };
  return servers;
}
