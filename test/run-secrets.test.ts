import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { childEnv } from './support/processes';

/**
 * The secrets `npm run up`, `npm test` and the e2e server make once per checkout (scripts/auth-secret.sh)
 * are readable by their owner only, whatever the shell's umask, also when an older run left them open.
 */
const ROOT = new URL('..', import.meta.url).pathname;
const FILES = ['auth-secret', 'rate-limit-hash-key'];
const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function sourceIn(prepare: (dir: string) => void = () => {}) {
  const dir = mkdtempSync(`${tmpdir()}/sy-run-`);
  dirs.push(dir);
  prepare(dir);
  const out = spawnSync('bash', ['-c', `umask 022 && source ${ROOT}scripts/auth-secret.sh && echo "$AUTH_SECRET"`], {
    cwd: dir,
    env: childEnv({}),
    encoding: 'utf8',
  });
  expect(out.status).toBe(0);
  return { dir, secret: out.stdout.trim() };
}

describe('.run/ secrets', () => {
  it('are made 0600 in a 0700 directory under a umask of 022', () => {
    const { dir, secret } = sourceIn();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(modeOf(`${dir}/.run`)).toBe('700');
    expect(FILES.map((name) => modeOf(`${dir}/.run/${name}`))).toEqual(['600', '600']);
  });

  it('are closed to others when an earlier run left them readable, and kept', () => {
    const kept = 'a'.repeat(64);
    const { dir, secret } = sourceIn((d) => {
      mkdirSync(`${d}/.run`, { mode: 0o755 });
      for (const name of FILES) writeFileSync(`${d}/.run/${name}`, `${kept}\n`, { mode: 0o644 });
    });
    expect(secret).toBe(kept);
    expect(modeOf(`${dir}/.run`)).toBe('700');
    expect(FILES.map((name) => modeOf(`${dir}/.run/${name}`))).toEqual(['600', '600']);
  });
});
