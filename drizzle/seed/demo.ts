/**
 * `npm run db:demo`: a year of made-up swaps (100,000 by default; `--swaps N`) in the configured
 * database, so a first run shows the dashboard as an operator sees it. Refuses a database that already
 * has swaps. Migrates and seeds the catalog first; rolls the dashboard's rollups up before it ends.
 */
import { parseArgs } from 'node:util';
import { createDb } from '../../server/db';
import { loadConfigOrExit } from '../../server/lifecycle';
import { rollUpEverything } from '../../server/rollups/run';
import { ensureDatabase, migrateDatabase } from '../migrate';
import { seedCatalog } from './seed';
import { generateSwapDataset } from './swap-dataset';

const { values } = parseArgs({ options: { swaps: { type: 'string', default: '100000' } } });
const swaps = Number(values.swaps);
if (!Number.isInteger(swaps) || swaps < 1 || swaps > 2_000_000) {
  console.error('--swaps must be a whole number from 1 to 2000000');
  process.exit(1);
}

const config = loadConfigOrExit('demo');
await ensureDatabase(config.databaseUrl);
await migrateDatabase(config.databaseUrl);
const handle = createDb({ url: config.databaseUrl, poolMax: 2, connectTimeoutMs: 5000 });
try {
  await seedCatalog(handle.db);
  const [existing] = await handle.sql<{ any: boolean }[]>`select exists (select 1 from transactions) as any`;
  if (existing?.any) {
    console.error('demo data: this database already has swaps; the demo dataset goes into an empty one only');
    process.exitCode = 1;
  } else {
    const started = Date.now();
    await generateSwapDataset(handle.sql, {
      swaps,
      days: 365,
      now: new Date(),
      tag: 'demo',
      chunk: 20_000,
      onProgress: (made) =>
        console.log(`demo data: ${made.toLocaleString('en-US')} of ${swaps.toLocaleString('en-US')} swaps`),
    });
    await rollUpEverything({ sql: handle.sql, config });
    console.log(`demo data: done in ${Math.round((Date.now() - started) / 1000)} s`);
  }
} finally {
  await handle.close();
}
