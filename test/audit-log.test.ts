import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordAudit } from '../server/audit/record';
import { verifyAuditChain } from '../server/audit/verify';
import { startTestApp, type TestApp } from './support/app';
import { childEnv } from './support/processes';

const run = promisify(execFile);
const actor = { userId: 'usr_a', email: 'admin@switchyard.test', role: 'admin' };

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 60_000);
afterAll(() => t?.stop());

/** Clears the log between tests the only way retention may: audit_prune. */
beforeEach(async () => {
  await t.app.sql`select audit_prune('infinity')`;
});

const record = (n: number) =>
  Promise.all(
    Array.from({ length: n }, (_, i) =>
      recordAudit(t.app.db, {
        action: 'user.role_change',
        actor,
        targetId: `usr_${i}`,
        before: { role: 'support', at: new Date(0) },
        after: { role: 'admin', nested: { b: 1, a: [1, 'x'] } },
        origin: { requestId: `req_${i}`, clientAddress: '203.0.113.7', userAgent: 'vitest' },
      }),
    ),
  );

/** Changes a row as a superuser would, with the append-only trigger off for that statement only. */
async function tamper(change: string) {
  await t.app.sql.begin(async (tx) => {
    await tx`alter table audit_events disable trigger audit_events_append_only`;
    await tx.unsafe(change);
    await tx`alter table audit_events enable trigger audit_events_append_only`;
  });
}

describe('the audit chain', () => {
  it('links every row to the one before, under concurrent inserts', async () => {
    await record(30);
    const rows = await t.app.sql<{ id: string; prev_hash: string | null; hash: string }[]>`
      select id, prev_hash, hash from audit_events order by id`;
    expect(rows).toHaveLength(30);
    rows.slice(1).forEach((row, i) => {
      expect(row.prev_hash).toBe(rows[i]?.hash);
    });
    expect(new Set(rows.map((r) => r.prev_hash)).size).toBe(30);
    expect(await verifyAuditChain(t.app.sql)).toMatchObject({ rows: 30, broken: null });
  });

  it('finds a changed column of a row', async () => {
    await record(5);
    const [third] = await t.app.sql<{ id: string }[]>`select id from audit_events order by id offset 2 limit 1`;
    await tamper(`update audit_events set actor_email = 'someone@else.test' where id = ${third?.id}`);
    const report = await verifyAuditChain(t.app.sql);
    expect(report.broken).toMatchObject({ id: Number(third?.id), problem: 'hash' });
    expect(report.rows).toBe(2);
  });

  it('finds a row removed from the middle', async () => {
    await record(5);
    const ids = (await t.app.sql<{ id: string }[]>`select id from audit_events order by id`).map((r) => Number(r.id));
    await tamper(`delete from audit_events where id = ${ids[2]}`);
    expect((await verifyAuditChain(t.app.sql)).broken).toMatchObject({ id: ids[3], problem: 'prev_hash' });
  });

  it('leaves no row when the transaction that recorded it rolls back', async () => {
    await t.app.db
      .transaction(async (tx) => {
        await recordAudit(tx, { action: 'webhook.delete', actor, targetId: 'whe_1' });
        throw new Error('the action failed');
      })
      .catch(() => {});
    expect((await t.app.sql`select count(*)::int as n from audit_events`)[0]?.n).toBe(0);
  });
});

describe('append-only in the database', () => {
  it('refuses UPDATE, DELETE and TRUNCATE', async () => {
    await record(2);
    await expect(t.app.sql`update audit_events set action = 'export'`).rejects.toThrow(/append-only: UPDATE/);
    await expect(t.app.sql`delete from audit_events`).rejects.toThrow(/append-only: DELETE/);
    await expect(t.app.sql`truncate audit_events`).rejects.toThrow(/append-only: TRUNCATE/);
    expect((await t.app.sql`select count(*)::int as n from audit_events`)[0]?.n).toBe(2);
  });

  it('prunes only through audit_prune, a prefix of the chain that still verifies', async () => {
    await record(2);
    // `at` is kept to the millisecond: the rows to keep must start in a later one than those to prune.
    await t.app.sql`select pg_sleep(0.002)`;
    await record(3);
    const [cut] = await t.app.sql<{ at: Date }[]>`select at from audit_events order by id offset 2 limit 1`;
    const [pruned] = await t.app.sql<{ n: string }[]>`select audit_prune(${cut?.at ?? new Date()}) as n`;
    expect(Number(pruned?.n)).toBe(2);
    expect(await verifyAuditChain(t.app.sql)).toMatchObject({ rows: 3, broken: null });
    await expect(t.app.sql`delete from audit_events`).rejects.toThrow(/append-only/);
  });
});

describe('npm run audit:verify', () => {
  const cli = () =>
    run('npx', ['tsx', 'scripts/audit-verify.ts'], { env: childEnv(t.env) }).then(
      (r) => ({ code: 0, out: r.stdout }),
      (e) => ({ code: e.code as number, out: `${e.stdout}${e.stderr}` }),
    );

  it('exits 0 on an intact chain and 1 naming the first broken row', async () => {
    await record(3);
    const intact = await cli();
    expect(intact, intact.out).toMatchObject({ code: 0 });
    expect(intact.out).toMatch(/intact: 3 rows/);
    const [last] = await t.app.sql<{ id: string }[]>`select max(id) as id from audit_events`;
    await tamper(`update audit_events set target_id = 'usr_other' where id = ${last?.id}`);
    const broken = await cli();
    expect(broken.code).toBe(1);
    expect(broken.out).toContain(`row ${last?.id}`);
  }, 60_000);
});
