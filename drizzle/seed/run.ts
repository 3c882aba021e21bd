import { createDb } from '../../server/db';
import { loadConfigOrExit } from '../../server/lifecycle';
import { seedCatalog } from './seed';

const config = loadConfigOrExit('seed');
const handle = createDb({ url: config.databaseUrl, poolMax: 1, connectTimeoutMs: 5000 });
try {
  const counts = await seedCatalog(handle.db);
  console.log(`catalog seeded: ${counts.chains} chains, ${counts.assets} assets, ${counts.sources} sources`);
} finally {
  await handle.close();
}
