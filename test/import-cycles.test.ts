import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url).pathname;
const sandbox = mkdtempSync(join(tmpdir(), 'cycle-probe-'));
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

function write(path: string, source: string) {
  const file = join(sandbox, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, source);
}

const checkCycles = (cwd?: string) =>
  spawnSync('bash', [join(root, 'scripts/check-cycles.sh'), ...(cwd ? [cwd] : [])], { encoding: 'utf8' });

describe('scripts/check-cycles.sh', () => {
  it('fails on a cycle made only of type imports, naming its files', () => {
    write('tsconfig.json', JSON.stringify({ compilerOptions: { paths: { '@/*': ['./*'] } } }));
    write('server/context.ts', "import { limiter } from './ratelimit/limiter';\nexport const context = { limiter };\n");
    write(
      'server/ratelimit/limiter.ts',
      "import type { RouteClass } from '../http/endpoint';\nexport const limiter = (c: RouteClass) => c;\n",
    );
    write(
      'server/http/endpoint.ts',
      "import type { context } from '../context';\nexport type RouteClass = keyof typeof context;\n",
    );
    const result = checkCycles(sandbox);
    expect(result.status, result.stdout).not.toBe(0);
    expect(result.stdout).toContain('context.ts > ratelimit/limiter.ts > http/endpoint.ts');
  });

  it('passes on this project', () => {
    const result = checkCycles();
    expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
  });
});
