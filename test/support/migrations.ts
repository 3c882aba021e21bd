import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateDatabase } from '../../drizzle/migrate';

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
    await migrateDatabase(url, { folder });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
