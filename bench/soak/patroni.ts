/**
 * The scaled soak's Postgres: two nodes run by Debian's Patroni, coordinated through a one-member etcd
 * (Debian's etcd-server) on loopback. A production etcd has three or five members on separate hosts;
 * one is enough here, as etcd's own failure is not among the faults. Patroni runs in synchronous mode
 * (a commit returns once the standby has flushed it, so a failover loses no acknowledged write) and
 * with primary_start_timeout 0: a crashed primary is failed over at once rather than restarted in
 * place. On a promotion its on_role_change callback re-points PgBouncer's databases at the new primary
 * (writes) and the other node (reads) and reloads PgBouncer.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { until } from './poll';

export interface PatroniNode {
  name: string;
  pgPort: number;
  restPort: number;
}

export interface PatroniMember {
  name: string;
  role: string;
  state: string;
  port: number;
  lag?: number | string;
  timeline?: number;
}

function pgBinDir(): string {
  const versions = spawnSync('ls', ['/usr/lib/postgresql'], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
  const latest = versions.sort().at(-1);
  if (!latest) throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql');
  return `/usr/lib/postgresql/${latest}/bin`;
}

const postgresIds = () => {
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
};

/** What the scaled soak needs that is not installed, as an apt-get line would name it ([] when nothing). */
export function missingFailoverPackages(): string[] {
  const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
  return [...(has('patroni') ? [] : ['patroni']), ...(has('etcd') ? [] : ['etcd-server'])];
}

/** A node's role as the REST API names it: the leader, or a synchronous or asynchronous standby. */
export const isLeader = (m: PatroniMember | undefined) => m?.role === 'leader' && m.state === 'running';
export const isSyncStandby = (m: PatroniMember | undefined) =>
  m?.role === 'sync_standby' && (m.state === 'streaming' || m.state === 'running');

export function privatePatroni({
  root,
  scope,
  etcd,
  nodes,
  pgbouncerDir,
  database,
}: {
  root: string;
  scope: string;
  etcd: { client: number; peer: number };
  nodes: [PatroniNode, PatroniNode];
  /** PgBouncer's directory (its pgbouncer.ini and pid file), re-pointed on a promotion. */
  pgbouncerDir: string;
  /** The names clients use in PgBouncer for the primary and the replica. */
  database: { write: string; read: string };
}) {
  const dir = `${root}/patroni`;
  const dataDir = (node: PatroniNode) => `${root}/pg-${node.name}`;
  const children = new Map<string, ChildProcess>();
  const pidFile = (name: string) => `${dir}/${name}.pid`;
  const rest = (node: PatroniNode) => `http://127.0.0.1:${node.restPort}`;

  const killPidFile = (name: string) => {
    if (!existsSync(pidFile(name))) return;
    const pid = Number(readFileSync(pidFile(name), 'utf8'));
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
    rmSync(pidFile(name), { force: true });
  };

  const launch = (name: string, cmd: string, args: string[], ids?: { uid: number; gid: number }) => {
    const log = openSync(`${dir}/${name}.log`, 'a');
    const child = spawn(cmd, args, {
      stdio: ['ignore', log, log],
      detached: true,
      ...(ids && process.getuid?.() === 0 ? { ...ids, env: { ...process.env, HOME: dir } } : {}),
    });
    child.unref();
    children.set(name, child);
    writeFileSync(pidFile(name), String(child.pid));
  };

  const callbackScript = (self: PatroniNode, other: PatroniNode) => {
    const path = `${dir}/on-role-change-${self.name}.sh`;
    const ini = `${pgbouncerDir}/pgbouncer.ini`;
    writeFileSync(
      path,
      [
        '#!/bin/sh',
        '# Patroni calls: <script> <action> <role> <scope>. On a promotion, PgBouncer sends writes here, reads to the other node.',
        'case "$2" in master|primary) ;; *) exit 0 ;; esac',
        `[ -f ${ini} ] || exit 0`,
        `sed -i -e 's/^${database.write} = host=127.0.0.1 port=[0-9]*/${database.write} = host=127.0.0.1 port=${self.pgPort}/' \\`,
        `  -e 's/^${database.read} = host=127.0.0.1 port=[0-9]*/${database.read} = host=127.0.0.1 port=${other.pgPort}/' ${ini}`,
        `[ -f ${pgbouncerDir}/pgbouncer.pid ] && kill -HUP "$(cat ${pgbouncerDir}/pgbouncer.pid)"`,
        'exit 0',
        '',
      ].join('\n'),
    );
    chmodSync(path, 0o755);
    return path;
  };

  const config = (self: PatroniNode, other: PatroniNode) => ({
    scope,
    name: self.name,
    restapi: { listen: `127.0.0.1:${self.restPort}`, connect_address: `127.0.0.1:${self.restPort}` },
    etcd3: { host: `127.0.0.1:${etcd.client}` },
    bootstrap: {
      dcs: {
        // A dead node's leader key lapses after ttl; a crashed primary whose Patroni lives fails over within a loop.
        ttl: 20,
        loop_wait: 2,
        retry_timeout: 5,
        maximum_lag_on_failover: 1_048_576,
        primary_start_timeout: 0,
        synchronous_mode: true,
        synchronous_mode_strict: false,
        postgresql: {
          use_pg_rewind: true,
          use_slots: true,
          parameters: { max_connections: 300, fsync: 'off', hot_standby: 'on', max_wal_senders: 10 },
        },
      },
      initdb: [{ encoding: 'UTF8' }, { auth: 'trust' }, 'no-sync'],
    },
    postgresql: {
      listen: `127.0.0.1:${self.pgPort}`,
      connect_address: `127.0.0.1:${self.pgPort}`,
      data_dir: dataDir(self),
      bin_dir: pgBinDir(),
      pgpass: `${dir}/pgpass-${self.name}`,
      authentication: {
        superuser: { username: 'postgres' },
        replication: { username: 'postgres' },
        rewind: { username: 'postgres' },
      },
      parameters: { unix_socket_directories: root },
      pg_hba: ['local all all trust', 'host all all 127.0.0.1/32 trust', 'host replication all 127.0.0.1/32 trust'],
      basebackup: [{ checkpoint: 'fast' }],
      remove_data_directory_on_rewind_failure: true,
      remove_data_directory_on_diverged_timelines: true,
      callbacks: { on_role_change: callbackScript(self, other) },
    },
  });

  const startNode = (self: PatroniNode) => {
    const other = nodes.find((n) => n !== self) as PatroniNode;
    const file = `${dir}/${self.name}.yml`;
    // JSON is YAML.
    writeFileSync(file, JSON.stringify(config(self, other), null, 2));
    if (process.getuid?.() === 0) spawnSync('chown', ['-R', 'postgres:postgres', dir]);
    launch(self.name, 'patroni', [file], postgresIds());
  };

  const patroni = {
    nodes,
    /** Every member as the first Patroni that answers sees the cluster. */
    async members(): Promise<PatroniMember[]> {
      for (const node of nodes) {
        try {
          const res = await fetch(`${rest(node)}/cluster`, { signal: AbortSignal.timeout(1000) });
          if (res.ok) return ((await res.json()) as { members: PatroniMember[] }).members;
        } catch {}
      }
      return [];
    },
    nodeOf: (member: PatroniMember | undefined) => nodes.find((n) => n.name === member?.name),
    async leader() {
      return patroni.nodeOf((await patroni.members()).find(isLeader));
    },
    until: (check: (members: PatroniMember[]) => boolean, timeoutMs: number) =>
      until(async () => check(await patroni.members()), timeoutMs, 200),
    /** etcd, then the first node (which bootstraps the cluster); resolves once it is the primary. */
    async startPrimary() {
      patroni.stop();
      rmSync(dir, { recursive: true, force: true });
      for (const node of nodes) rmSync(dataDir(node), { recursive: true, force: true });
      mkdirSync(`${dir}/etcd`, { recursive: true, mode: 0o700 });
      chmodSync(root, 0o755);
      const peer = `http://127.0.0.1:${etcd.peer}`;
      const client = `http://127.0.0.1:${etcd.client}`;
      launch('etcd', 'etcd', [
        ...['--name', 'soak', '--data-dir', `${dir}/etcd`],
        ...['--listen-client-urls', client, '--advertise-client-urls', client],
        ...['--listen-peer-urls', peer, '--initial-advertise-peer-urls', peer, '--initial-cluster', `soak=${peer}`],
      ]);
      const etcdUp = await until(() => fetch(`${client}/health`).then((r) => r.ok), 30_000, 200);
      if (etcdUp === undefined) throw new Error(`etcd did not start; see ${dir}/etcd.log`);
      startNode(nodes[0]);
      const primary = await patroni.until((m) => m.some(isLeader), 120_000);
      if (primary === undefined)
        throw new Error(`Patroni did not bootstrap a primary; see ${dir}/${nodes[0].name}.log`);
    },
    /** The second node: Patroni clones it with pg_basebackup; resolves once it is the synchronous standby. */
    async startStandby() {
      startNode(nodes[1]);
      const sync = await patroni.until((m) => m.some(isSyncStandby), 180_000);
      if (sync === undefined) throw new Error(`no synchronous standby; see ${dir}/${nodes[1].name}.log`);
    },
    /** SIGKILLs `node`'s postmaster (its Patroni lives on); returns false when it was not running. */
    killPostmaster(node: PatroniNode) {
      const file = `${dataDir(node)}/postmaster.pid`;
      if (!existsSync(file)) return false;
      const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
      try {
        process.kill(pid, 'SIGKILL');
        return true;
      } catch {
        return false;
      }
    },
    /** A restart through Patroni (it keeps its role: no failover). */
    async restart(node: PatroniNode) {
      const res = await fetch(`${rest(node)}/restart`, { method: 'POST', body: '{}' });
      if (!res.ok) throw new Error(`Patroni ${node.name} refused a restart: ${res.status} ${await res.text()}`);
    },
    /** Every Patroni (each stops its Postgres), then etcd. */
    stop() {
      for (const node of nodes) {
        const pid = existsSync(pidFile(node.name)) ? Number(readFileSync(pidFile(node.name), 'utf8')) : 0;
        if (pid) {
          try {
            process.kill(pid, 'SIGTERM');
          } catch {}
          for (let i = 0; i < 150 && alive(pid); i++) spawnSync('sleep', ['0.1']);
        }
        killPidFile(node.name);
        // A postmaster left behind by a killed Patroni.
        const pm = `${dataDir(node)}/postmaster.pid`;
        if (existsSync(pm)) {
          try {
            process.kill(Number(readFileSync(pm, 'utf8').split('\n')[0]), 'SIGKILL');
          } catch {}
        }
      }
      killPidFile('etcd');
    },
    dataDir,
  };
  return patroni;
}

export type PrivatePatroni = ReturnType<typeof privatePatroni>;

function alive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
