import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';

/**
 * A Redis Cluster of Debian's `redis-server` in cluster mode on consecutive loopback ports under `root`:
 * `masters` masters with `replicasPerMaster` replicas each, made with `redis-cli --cluster create`.
 */
export interface PrivateRedisCluster {
  ports: number[];
  /** Seed nodes as REDIS_CLUSTER_NODES takes them. */
  nodes: string;
  start(): Promise<void>;
  /** SIGKILLs one node (no shutdown handshake): a crash. */
  kill(port: number): void;
  /** Starts one node again with its data directory (it rejoins with its saved cluster config). */
  restart(port: number): Promise<void>;
  /** Ports of the nodes that are masters now, each with the slot ranges it serves. */
  masters(): { port: number; slots: string }[];
  /** The node serving `key`'s slot now. */
  masterOf(key: string): number | undefined;
  stop(): void;
}

export const redisCli = (port: number, ...args: string[]) =>
  spawnSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function privateRedisCluster({
  root,
  basePort,
  masters = 3,
  replicasPerMaster = 0,
  nodeTimeoutMs = 2000,
}: {
  root: string;
  basePort: number;
  masters?: number;
  replicasPerMaster?: number;
  nodeTimeoutMs?: number;
}): PrivateRedisCluster {
  const ports = Array.from({ length: masters * (1 + replicasPerMaster) }, (_, i) => basePort + i);
  const dirOf = (port: number) => `${root}/redis-cluster/${port}`;

  const startNode = async (port: number) => {
    mkdirSync(dirOf(port), { recursive: true });
    spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        'nodes.conf',
        '--cluster-node-timeout',
        String(nodeTimeoutMs),
        '--save',
        '',
        '--appendonly',
        'no',
        '--maxmemory-policy',
        'noeviction',
        '--dir',
        dirOf(port),
        '--logfile',
        `${dirOf(port)}/redis.log`,
      ],
      { stdio: 'ignore', detached: true },
    ).unref();
    for (let i = 0; i < 100; i++) {
      if (redisCli(port, 'ping').stdout.includes('PONG')) return;
      await sleep(50);
    }
    throw new Error(`cluster node on ${port} did not start`);
  };

  const clusterOk = () => ports.every((port) => redisCli(port, 'cluster', 'info').stdout.includes('cluster_state:ok'));

  const cluster: PrivateRedisCluster = {
    ports,
    nodes: ports.map((port) => `127.0.0.1:${port}`).join(','),
    async start() {
      cluster.stop();
      rmSync(`${root}/redis-cluster`, { recursive: true, force: true });
      await Promise.all(ports.map(startNode));
      const created = spawnSync(
        'redis-cli',
        [
          '--cluster',
          'create',
          ...ports.map((port) => `127.0.0.1:${port}`),
          '--cluster-replicas',
          String(replicasPerMaster),
          '--cluster-yes',
        ],
        { encoding: 'utf8' },
      );
      if (created.status !== 0)
        throw new Error(`redis-cli --cluster create failed: ${created.stderr || created.stdout}`);
      for (let i = 0; i < 200; i++) {
        if (clusterOk()) {
          // Replicas report `ok` before their first sync; wait until every replica is linked.
          const linked = ports.every((port) => {
            const info = redisCli(port, 'info', 'replication').stdout;
            return !info.includes('role:slave') || info.includes('master_link_status:up');
          });
          if (linked) return;
        }
        await sleep(100);
      }
      throw new Error('the Redis Cluster did not reach cluster_state:ok');
    },
    kill(port) {
      const pid = Number(redisCli(port, 'info', 'server').stdout.match(/process_id:(\d+)/)?.[1]);
      if (pid) process.kill(pid, 'SIGKILL');
    },
    restart: (port) => startNode(port),
    masters() {
      const answering = ports.find((port) => redisCli(port, 'ping').stdout.includes('PONG'));
      if (answering === undefined) return [];
      return redisCli(answering, 'cluster', 'nodes')
        .stdout.split('\n')
        .filter((line) => line.includes('master') && !line.includes('fail'))
        .map((line) => {
          const fields = line.split(' ');
          return { port: Number(fields[1]?.split('@')[0]?.split(':')[1]), slots: fields.slice(8).join(' ') };
        })
        .filter((master) => master.slots);
    },
    masterOf(key) {
      const answering = ports.find((port) => redisCli(port, 'ping').stdout.includes('PONG'));
      if (answering === undefined) return undefined;
      const slot = Number(redisCli(answering, 'cluster', 'keyslot', key).stdout.trim());
      return cluster.masters().find(({ slots }) =>
        slots.split(' ').some((range) => {
          const [from, to = from] = range.split('-').map(Number);
          return from !== undefined && to !== undefined && slot >= from && slot <= to;
        }),
      )?.port;
    },
    stop() {
      for (const port of ports) redisCli(port, 'shutdown', 'nosave');
    },
  };
  return cluster;
}
