import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';

/** Migrates `url` to just before the migration `tag`, from a copy of the migrations folder that stops there. */
export async function migrateBefore(url: string, tag: string): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'migrations-'));
  try {
    cpSync(new URL('../../drizzle/migrations', import.meta.url).pathname, folder, { recursive: true });
    const journalPath = join(folder, 'meta/_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8'));
    const at = journal.entries.findIndex((e: { tag: string }) => e.tag === tag);
    if (at <= 0) throw new Error(`no migration ${tag} after the first`);
    journal.entries = journal.entries.slice(0, at);
    writeFileSync(journalPath, JSON.stringify(journal));
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await migrate(drizzle(sql), { migrationsFolder: folder });
    } finally {
      await sql.end();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
