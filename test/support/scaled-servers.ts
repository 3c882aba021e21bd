import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

/**
 * The servers a scaled deployment adds, private to one suite or the soak: a Postgres streaming replica
 * made with `pg_basebackup` from a private primary, and PgBouncer in transaction mode. Both run as the
 * `postgres` user when this process is root (neither runs as root).
 */
function pgBin(tool: string): string {
  const version = existsSync('/usr/lib/postgresql')
    ? spawnSync('ls', ['/usr/lib/postgresql'], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).sort().at(-1)
    : undefined;
  if (!version) throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql');
  return `/usr/lib/postgresql/${version}/bin/${tool}`;
}

const asPostgres = (args: string[]): [string, string[]] =>
  process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', ...args]] : [args[0] as string, args.slice(1)];

function runAsPostgres(args: string[]) {
  const [cmd, rest] = asPostgres(args);
  const result = spawnSync(cmd, rest, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr || result.stdout}`);
  return result.stdout;
}

const psql = (port: number, query: string, db = 'postgres') =>
  execFileSync('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', db, '-tAc', query], {
    encoding: 'utf8',
  }).trim();

export interface PrivateReplica {
  port: number;
  url(db?: string): string;
  /** A fresh replica of the primary on `primaryPort`, streaming from it (`pg_basebackup -R`). */
  create(): void;
  start(): void;
  stop(mode?: 'fast' | 'immediate'): void;
  /** Holds replay (WAL still arrives, nothing of it becomes visible) until `resumeReplay`. */
  pauseReplay(): void;
  resumeReplay(): void;
  /** Whether everything the primary has written is visible on the replica. */
  caughtUp(): boolean;
}

export function privateReplica({
  root,
  primaryPort,
  port,
}: {
  root: string;
  primaryPort: number;
  port: number;
}): PrivateReplica {
  const dir = `${root}/pg-replica`;
  const replica: PrivateReplica = {
    port,
    url: (db = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${db}`,
    create() {
      replica.stop('immediate');
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      chmodSync(dir, 0o700);
      execFileSync('chown', ['-R', 'postgres:postgres', dir]);
      chmodSync(root, 0o755);
      runAsPostgres([
        pgBin('pg_basebackup'),
        '-h',
        '127.0.0.1',
        '-p',
        String(primaryPort),
        '-U',
        'postgres',
        '-D',
        dir,
        '-R',
        '-X',
        'stream',
        '--checkpoint=fast',
        '--no-sync',
      ]);
    },
    start() {
      runAsPostgres([
        pgBin('pg_ctl'),
        '-D',
        dir,
        '-o',
        `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300 -c hot_standby=on`,
        '-l',
        `${dir}/log`,
        '-w',
        'start',
      ]);
    },
    stop(mode = 'fast') {
      if (existsSync(`${dir}/postmaster.pid`)) runAsPostgres([pgBin('pg_ctl'), '-D', dir, '-m', mode, '-w', 'stop']);
    },
    pauseReplay: () => void psql(port, 'select pg_wal_replay_pause()'),
    resumeReplay() {
      for (let attempt = 0; ; attempt++) {
        try {
          psql(port, 'select pg_wal_replay_resume()');
          return;
        } catch (error) {
          if (attempt >= 20) throw error;
          spawnSync('sleep', ['0.5']);
        }
      }
    },
    caughtUp() {
      const written = psql(primaryPort, 'select pg_current_wal_lsn()');
      return psql(port, `select pg_last_wal_replay_lsn() >= '${written}'::pg_lsn`) === 't';
    },
  };
  return replica;
}

/** Debian's pgbouncer, installed with apt-get when missing; false when it cannot be. */
export function ensurePgBouncer(): boolean {
  if (spawnSync('sh', ['-c', 'command -v pgbouncer || test -x /usr/sbin/pgbouncer']).status === 0) return true;
  if (process.getuid?.() !== 0) return false;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env });
  spawnSync('apt-get', ['install', '-y', '-qq', 'pgbouncer'], { stdio: 'ignore', env });
  return spawnSync('sh', ['-c', 'command -v pgbouncer || test -x /usr/sbin/pgbouncer']).status === 0;
}

const PGBOUNCER = existsSync('/usr/sbin/pgbouncer') ? '/usr/sbin/pgbouncer' : 'pgbouncer';

export interface PrivatePgBouncer {
  port: number;
  url(db: string): string;
  start(): Promise<void>;
  /** SIGINT: a safe shutdown that waits for transactions in flight, then exits. */
  stop(): void;
  /** SIGKILL: every client connection drops at once. */
  kill(): void;
  /** Counters of the admin console's SHOW STATS for one database. */
  stats(db: string): { transactions: number; queries: number };
}

/**
 * PgBouncer in transaction mode: each transaction (or statement outside one) takes any server
 * connection of its database's pool and gives it back at the end. `databases` maps a database name
 * clients use to the real server's host, port and database.
 */
export function privatePgBouncer({
  root,
  port,
  databases,
  poolSize = 20,
}: {
  root: string;
  port: number;
  databases: Record<string, { port: number; dbname: string; password?: string }>;
  poolSize?: number;
}): PrivatePgBouncer {
  const dir = `${root}/pgbouncer`;
  const pidFile = `${dir}/pgbouncer.pid`;
  const pid = () => (existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : undefined);
  const alive = (p: number | undefined) => {
    if (!p) return false;
    try {
      process.kill(p, 0);
      return true;
    } catch {
      return false;
    }
  };
  const bouncer: PrivatePgBouncer = {
    port,
    url: (db) => `postgres://postgres@127.0.0.1:${port}/${db}`,
    async start() {
      mkdirSync(dir, { recursive: true });
      writeFileSync(`${dir}/users.txt`, '"postgres" ""\n');
      const lines = Object.entries(databases).map(
        ([name, to]) =>
          `${name} = host=127.0.0.1 port=${to.port} dbname=${to.dbname} user=postgres${to.password ? ` password=${to.password}` : ''}`,
      );
      writeFileSync(
        `${dir}/pgbouncer.ini`,
        [
          '[databases]',
          ...lines,
          '[pgbouncer]',
          'listen_addr = 127.0.0.1',
          `listen_port = ${port}`,
          `unix_socket_dir = ${dir}`,
          'auth_type = trust',
          `auth_file = ${dir}/users.txt`,
          'admin_users = postgres',
          'pool_mode = transaction',
          `default_pool_size = ${poolSize}`,
          'max_client_conn = 2000',
          'server_reset_query =',
          // After a failed server login PgBouncer refuses clients this long (default 15 s); a restarted server is back in 2.
          'server_login_retry = 1',
          'ignore_startup_parameters = extra_float_digits,options',
          `logfile = ${dir}/pgbouncer.log`,
          `pidfile = ${pidFile}`,
          '',
        ].join('\n'),
      );
      if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
      chmodSync(root, 0o755);
      runAsPostgres([PGBOUNCER, '-d', `${dir}/pgbouncer.ini`]);
      for (let i = 0; i < 100; i++) {
        const probe = spawnSync('pg_isready', ['-h', '127.0.0.1', '-p', String(port), '-d', 'pgbouncer']);
        if (probe.status === 0) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`pgbouncer did not start on ${port}; see ${dir}/pgbouncer.log`);
    },
    stop() {
      const p = pid();
      if (!alive(p)) return;
      process.kill(p as number, 'SIGINT');
      for (let i = 0; i < 200 && alive(p); i++) spawnSync('sleep', ['0.05']);
      if (alive(p)) process.kill(p as number, 'SIGKILL');
    },
    kill() {
      const p = pid();
      if (alive(p)) process.kill(p as number, 'SIGKILL');
      for (let i = 0; i < 100 && alive(p); i++) spawnSync('sleep', ['0.02']);
      rmSync(pidFile, { force: true });
    },
    stats(db) {
      const out = execFileSync(
        'psql',
        ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'pgbouncer', '-tAF', '|', '-c', 'SHOW STATS'],
        { encoding: 'utf8' },
      );
      const row = out.split('\n').find((line) => line.startsWith(`${db}|`));
      const fields = row?.split('|') ?? [];
      return { transactions: Number(fields[1] ?? 0), queries: Number(fields[2] ?? 0) };
    },
  };
  return bouncer;
}
