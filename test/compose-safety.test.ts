import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * The compose files as shipped, read as compose reads them: anyone who reaches the host must find no
 * database, pooler or Redis port, and no credential must be a default someone forgot to change.
 */
const read = (name: string) => readFileSync(new URL(`../${name}`, import.meta.url), 'utf8');

interface Service {
  ports?: (string | number | { host_ip?: string; published?: string | number })[];
  environment?: Record<string, string | number | boolean | null> | string[];
  networks?: string[] | Record<string, unknown>;
  command?: string | string[];
}
interface ComposeFile {
  services: Record<string, Service>;
  networks?: Record<string, { internal?: boolean; ipam?: { config?: { subnet?: string }[] } } | null>;
}

const load = (name: string) => parse(read(name), { merge: true }) as ComposeFile;
const FILES = ['docker-compose.yml', 'docker-compose.scaled.yml'];

/** Only the web processes face clients; the host address a short-syntax port binds (none: every interface). */
const mayPublishWidely = (service: string) => /^web-\d+$/.test(service);
function hostAddress(port: NonNullable<Service['ports']>[number]): string | undefined {
  if (typeof port === 'object') return port.published === undefined ? 'unpublished' : port.host_ip;
  const parts = String(port).split(':');
  return parts.length === 3 ? parts[0] : undefined;
}

const environmentOf = (service: Service): [string, string][] => {
  const env = service.environment ?? {};
  if (Array.isArray(env)) return env.map((line) => line.split('=', 2) as [string, string]);
  return Object.entries(env).map(([k, v]) => [k, String(v ?? '')]);
};

/** `${NAME:?message}`: compose refuses to start without NAME and offers no default. */
const REQUIRED_VARIABLE = /^\$\{[A-Z_][A-Z0-9_]*:\?[^}]*\}$/;
const SECRET_NAME = /PASSWORD|SECRET|HASH_KEY|TOKEN|API_KEY/;
const URL_PASSWORD = /:\/\/[^:/@\s]+:(\$\{[^}]*\}|[^@\s]*)@/g;

describe.each(FILES)('%s', (file) => {
  const compose = load(file);
  const services = Object.entries(compose.services);

  it('publishes nothing on a public interface but the web processes', () => {
    const exposed = services.flatMap(([name, service]) =>
      (service.ports ?? [])
        .filter((port) => !mayPublishWidely(name) && !['127.0.0.1', 'unpublished'].includes(hostAddress(port) ?? ''))
        .map((port) => `${name}: ${JSON.stringify(port)}`),
    );
    expect(exposed).toEqual([]);
  });

  it('takes every password and secret from the environment, with no default', () => {
    const settings = services.flatMap(([name, service]) =>
      environmentOf(service).map(([key, value]) => ({ where: `${name}.${key}`, key, value })),
    );
    const secrets = settings.filter(({ key }) => SECRET_NAME.test(key));
    expect(secrets.length).toBeGreaterThan(0);
    expect(secrets.filter(({ value }) => !REQUIRED_VARIABLE.test(value)).map((s) => `${s.where}=${s.value}`)).toEqual(
      [],
    );
    const urlPasswords = settings.flatMap(({ where, value }) =>
      [...value.matchAll(URL_PASSWORD)].map((m) => ({ where, password: m[1] as string })),
    );
    expect(urlPasswords.filter(({ password }) => !REQUIRED_VARIABLE.test(password))).toEqual([]);
    // A `${NAME:-default}` or `${NAME-default}` anywhere would be a default that ships.
    expect(read(file).match(/\$\{[A-Z_][A-Z0-9_]*:?-[^}]*\}/g) ?? []).toEqual([]);
  });
});

/** Whether every address of `inner` (CIDR) lies in `outer` (CIDR). */
function within(inner: string, outer: string): boolean {
  const parse = (cidr: string) => {
    const [ip = '', bits = 'x'] = cidr.split('/');
    const octets = ip.split('.').map(Number);
    const prefix = Number(bits);
    if (octets.length !== 4 || octets.some((o) => !Number.isInteger(o) || o < 0 || o > 255)) return undefined;
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > 32) return undefined;
    return { value: octets.reduce((n, o) => n * 256 + o, 0), prefix };
  };
  const [a, b] = [parse(inner), parse(outer)];
  if (!a || !b || a.prefix < b.prefix) return false;
  const block = 2 ** (32 - b.prefix);
  return Math.floor(a.value / block) === Math.floor(b.value / block);
}

describe('docker-compose.scaled.yml replication', () => {
  const compose = load('docker-compose.scaled.yml');
  const script = read('ops/postgres/allow-replication.sh');
  const networksOf = (service: Service) =>
    Array.isArray(service.networks) ? service.networks : Object.keys(service.networks ?? {});

  it('admits replication only from the replica’s own network, as a role that is not a superuser', () => {
    const network = compose.networks?.replication;
    const subnet = network?.ipam?.config?.[0]?.subnet;
    expect(subnet).toMatch(/^\d+\.\d+\.\d+\.\d+\/\d+$/);
    expect(network?.internal).toBe(true);
    const onIt = Object.entries(compose.services)
      .filter(([, service]) => networksOf(service).includes('replication'))
      .map(([name]) => name);
    expect(onIt.sort()).toEqual(['postgres-primary', 'postgres-replica']);

    const primaryEnv = Object.fromEntries(environmentOf(compose.services['postgres-primary'] as Service));
    expect(primaryEnv.REPLICATION_SUBNET).toBe(subnet);
    const rules = script.split('\n').filter((line) => /^\s*echo\s+"host\s+replication/.test(line));
    expect(rules).toEqual([
      expect.stringMatching(/host replication replicator \$\{REPLICATION_SUBNET\} scram-sha-256/),
    ]);
    // The rule's address as the primary's entrypoint writes it: inside the declared subnet, a small private one.
    const address = (rules[0] ?? '')
      .replace(/\$\{(\w+)\}/g, (_, name: string) => primaryEnv[name] ?? '')
      .split(/\s+/)[4];
    expect(within(address ?? '', subnet ?? '')).toBe(true);
    expect(within(subnet ?? '', '172.16.0.0/12') || within(subnet ?? '', '10.0.0.0/8')).toBe(true);
    expect(Number(subnet?.split('/')[1])).toBeGreaterThanOrEqual(24);
    const role = script.split('\n').filter((line) => /CREATE ROLE replicator/.test(line));
    expect(role).toEqual([
      expect.stringMatching(/^CREATE ROLE replicator WITH REPLICATION LOGIN PASSWORD :'password';$/),
    ]);

    const replicaCommand = [compose.services['postgres-replica']?.command ?? ''].flat().join(' ');
    expect(replicaCommand).toContain('-U replicator');
    expect(replicaCommand).not.toMatch(/-U postgres\b/);
  });
});
