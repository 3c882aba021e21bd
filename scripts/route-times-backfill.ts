import { createDb } from '../server/db';
import { loadConfigOrExit } from '../server/lifecycle';
import { backfillRouteTimes } from '../server/route-times/backfill';

/**
 * npm run route-times:backfill — once, after upgrading to route times (migration 0019) or loading swaps
 * already settled: the window's route times from the settled swaps in DATABASE_URL, and expected-by times
 * for the pending ones. Safe to repeat.
 */
const config = loadConfigOrExit('route-times:backfill');
const handle = createDb({ url: config.databaseUrl, poolMax: 2, connectTimeoutMs: 5000 });
try {
  const { settled, expected } = await backfillRouteTimes({ sql: handle.sql, config });
  console.log(
    `route times: ${settled} settled swaps in the window recorded, ${expected} pending swaps given an expected-by time`,
  );
} finally {
  await handle.close();
}
