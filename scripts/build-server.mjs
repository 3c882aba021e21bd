// Compiles the production processes to plain JavaScript in dist/ (npm packages stay imports), so they
// start with `node` alone. Next compiles app/ itself in `next build`.
import { cpSync } from 'node:fs';
import { build } from 'esbuild';

const entryPoints = [
  'scripts/run-all.ts',
  'server/http/web-server.ts',
  'server/http/lean-server.ts',
  'workers/main.ts',
  'server/providers/simulators-main.ts',
  'drizzle/migrate.ts',
  'drizzle/seed/run.ts',
  'scripts/create-admin.ts',
];

await build({
  entryPoints,
  outbase: '.',
  outdir: 'dist',
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  // A dynamic import stays one: tracing's SDK (server/tracing/sdk.ts) is loaded only when it is turned on,
  // where a single bundle would import its packages at every start.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
});
cpSync('drizzle/migrations', 'dist/drizzle/migrations', { recursive: true });
