import postgres from 'postgres';
import { verifyAuditChain } from '../server/audit/verify';
import { loadConfigOrExit } from '../server/lifecycle';

/** npm run audit:verify — walks the audit log's hash chain in DATABASE_URL; exit 1 at the first broken link. */
const { databaseUrl } = loadConfigOrExit('audit:verify');
const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
try {
  const report = await verifyAuditChain(sql);
  if (report.broken) {
    console.error(`audit chain broken at ${report.broken.message} (${report.rows} rows verified before it)`);
    process.exitCode = 1;
  } else {
    console.log(
      report.rows
        ? `audit chain intact: ${report.rows} rows, ids ${report.firstId} to ${report.lastId}`
        : 'audit chain intact: no rows',
    );
  }
} finally {
  await sql.end({ timeout: 5 });
}
