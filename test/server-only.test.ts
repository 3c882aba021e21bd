import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url).pathname;
const sandbox = mkdtempSync(join(tmpdir(), 'server-only-probe-'));
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

function write(path: string, source: string) {
  const file = join(sandbox, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, source);
}

const check = (project?: string) =>
  spawnSync(process.execPath, [join(root, 'scripts/check-client-imports.mjs'), ...(project ? [project] : [])], {
    encoding: 'utf8',
  });

describe('scripts/check-client-imports.mjs', () => {
  write(
    'tsconfig.json',
    JSON.stringify({
      compilerOptions: { module: 'esnext', moduleResolution: 'bundler', jsx: 'react-jsx', paths: { '@/*': ['./*'] } },
    }),
  );
  write('server/config.ts', "import 'server-only';\nexport const secret = 'x';\nexport type Mode = 'a' | 'b';\n");
  write('server/keys.ts', "import { secret } from './config';\nexport const keys = [secret];\n");

  it('fails when a client component reaches a server-only module, naming the chain', () => {
    write('app/page.tsx', "import { View } from './View';\nexport default function Page() { return View; }\n");
    write('app/View.tsx', "'use client';\nimport { keys } from '@/server/keys';\nexport const View = keys;\n");
    const result = check(sandbox);
    expect(result.status, result.stdout).toBe(1);
    expect(result.stderr).toContain('app/View.tsx > server/keys.ts > server/config.ts');
  });

  it('allows type-only imports and server components', () => {
    write(
      'app/View.tsx',
      "'use client';\nimport type { Mode } from '@/server/config';\nexport const View: Mode = 'a';\n",
    );
    write('app/page.tsx', "import { keys } from '@/server/keys';\nexport default function Page() { return keys; }\n");
    const result = check(sandbox);
    expect(result.status, result.stderr).toBe(0);
  });

  it('passes on this project, whose config, database, Redis and context modules are marked', () => {
    const result = check();
    expect(result.status, result.stderr).toBe(0);
  }, 120_000);
});
