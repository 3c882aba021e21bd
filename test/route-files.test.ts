import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

/** The Next route files that mount our API dispatcher, probes or metrics (server/http/next.ts). */
const mountedRouteFiles = readdirSync(join(root, 'app'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('route.ts'))
  .map((file) => ({ file, source: readFileSync(join(root, 'app', file), 'utf8') }))
  .filter(({ source }) => source.includes("from '@/server/http/next'"));

describe('the API route files', () => {
  it('are found', () => {
    expect(mountedRouteFiles.map(({ file }) => file)).toContain(join('api', 'v1', 'transaction', 'status', 'route.ts'));
  });

  it('are always dynamic, so Next hands their handlers the request without its dynamic-use Proxy', () => {
    const missing = mountedRouteFiles
      .filter(({ source }) => !/^export const dynamic = 'force-dynamic';$/m.test(source))
      .map(({ file }) => file);
    expect(missing).toEqual([]);
  });
});
