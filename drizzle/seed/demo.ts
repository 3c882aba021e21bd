/**
 * `npm run db:demo`: a year of made-up swaps (100,000 by default; `--swaps N`) in the configured
 * database, so a first run shows the dashboard as an operator sees it. Refuses production, live
 * providers, and a database that has swaps, users, referral codes or webhook endpoints. Migrates and
 * seeds the catalog first; rolls the dashboard's rollups up before it ends.
 */
import { parseArgs } from 'node:util';
import { createDb } from '../../server/db';
import { DEMO_TAG, demoLoadRefusal } from '../../server/demo-data';
import { loadConfigOrExit } from '../../server/lifecycle';
import { rollUpEverything } from '../../server/rollups/run';
import { backfillRouteTimes } from '../../server/route-times/backfill';
import { ensureDatabase, migrateDatabase } from '../migrate';
import { seedCatalog } from './seed';
import { generateSwapDataset } from './swap-dataset';

const refuse = (reason: string): never => {
  console.error(`demo data: ${reason}`);
  process.exit(1);
};

const { values } = parseArgs({ options: { swaps: { type: 'string', default: '100000' } } });
const swaps = Number(values.swaps);
if (!Number.isInteger(swaps) || swaps < 1 || swaps > 2_000_000)
  refuse('--swaps must be a whole number from 1 to 2000000');
// Before the configuration, which in production would first ask for its secrets.
if (process.env.NODE_ENV === 'production')
  refuse('NODE_ENV is production; the demo dataset never goes into a production database');

const config = loadConfigOrExit('demo');
if (config.providersMode !== 'simulated') {
  refuse(
    'PROVIDERS_MODE is live; the demo dataset is for simulated providers only (a live worker refuses a database holding it)',
  );
}
await ensureDatabase(config.databaseUrl);
await migrateDatabase(config.databaseUrl);
const handle = createDb({ url: config.databaseUrl, poolMax: 2, connectTimeoutMs: 5000 });
try {
  const refusal = await demoLoadRefusal(handle.sql);
  if (refusal) {
    console.error(`demo data: ${refusal}`);
    process.exitCode = 1;
  } else {
    await seedCatalog(handle.db);
    const started = Date.now();
    await generateSwapDataset(handle.sql, {
      swaps,
      days: 365,
      now: new Date(),
      tag: DEMO_TAG,
      chunk: 20_000,
      onProgress: (made) =>
        console.log(`demo data: ${made.toLocaleString('en-US')} of ${swaps.toLocaleString('en-US')} swaps`),
    });
    await rollUpEverything({ sql: handle.sql, config });
    await backfillRouteTimes({ sql: handle.sql, config });
    console.log(`demo data: done in ${Math.round((Date.now() - started) / 1000)} s`);
  }
} finally {
  await handle.close();
}
