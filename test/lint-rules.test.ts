import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url).pathname;
const sandbox = mkdtempSync(join(tmpdir(), 'lint-probe-'));
copyFileSync(join(root, 'biome.json'), join(sandbox, 'biome.json'));
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

/** Lints one file placed at `path` in a scratch copy of the project's Biome configuration. */
function lint(path: string, source: string) {
  const file = join(sandbox, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, source);
  const result = spawnSync(
    join(root, 'node_modules/.bin/biome'),
    ['lint', '--vcs-enabled=false', '--only=style/noRestrictedImports', path],
    { cwd: sandbox, encoding: 'utf8' },
  );
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('layering lint rule', () => {
  it.each([
    "import { eq } from 'drizzle-orm';",
    "import { pgTable } from 'drizzle-orm/pg-core';",
    "import { chains } from '@/drizzle/schema';",
    "import postgres from 'postgres';",
  ])('refuses %s inside app/', (line) => {
    const { status, output } = lint('app/api/example/route.ts', `${line}\nexport const x = 1;\n`);
    expect(status).not.toBe(0);
    expect(output).toContain('noRestrictedImports');
  });

  it('allows the same import in server/', () => {
    const { status, output } = lint('server/example.ts', "import { eq } from 'drizzle-orm';\nexport const x = eq;\n");
    expect(status, output).toBe(0);
  });
});
