import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { affiliateOverview } from '../server/affiliates/attribution';
import { STATEMENT_FILE_COLUMNS, STATEMENT_RECORDS, statementFor } from '../server/affiliates/statement';
import type { Viewer } from '../server/auth/roles';
import { TRANSACTION_EXPORT_COLUMNS } from '../server/exports/transactions';
import { foldSwapDeltas } from '../server/rollups/swaps';
import { startTestApp, type TestApp } from './support/app';
import { type BuiltWeb, ensureWebBuild, startBuiltWeb } from './support/built-web';
import { cookieHeader, PASSWORD, type SignedInUser, signedInUser } from './support/dashboard';
import { insertTransactions } from './support/seed-transactions';

/**
 * Affiliate statements reconcile with the dashboard's overview: every status, a swap settled after its
 * month closed, codes given before they were registered, in another case, and a code that changed hands.
 */
let t: TestApp;
let web: BuiltWeb;
let alice: SignedInUser;
let bob: SignedInUser;
let admin: SignedInUser;

const NOW = new Date('2026-11-10T12:34:56.000Z');
const SINCE_30D = new Date(NOW.getTime() - 30 * 24 * 3600_000);
const viewerOf = (user: SignedInUser): Viewer => ({
  userId: user.id,
  email: user.email,
  role: user.role,
  sessionId: 'statement-test',
});

let lateSettled = '';

beforeAll(async () => {
  ensureWebBuild();
  t = await startTestApp();
  web = await startBuiltWeb(t);
  [alice, bob, admin] = [
    await signedInUser(t.app, 'affiliate'),
    await signedInUser(t.app, 'affiliate'),
    await signedInUser(t.app, 'admin'),
  ];
  const register = (code: string, owner: string) =>
    t.app.sql`insert into referral_codes (code, owner_id) values (${code}, ${owner})`;
  await register('alpha', alice.id);
  await register('Beta', alice.id);
  await register('omega', alice.id);
  await register('gamma', bob.id);
  const swap = (
    code: string | null,
    owner: string | null,
    createdAt: string,
    status: 'PENDING' | 'SUCCESS' | 'FAILED' | 'REFUND',
    amountUsd: string,
    feeUsd: string,
  ) => ({
    wallet: '0xa11ce',
    recipient: 'bc1qrecipient',
    referralCode: code,
    referralOwnerId: owner,
    createdAt: new Date(createdAt),
    status,
    amountUsd,
    feeUsd,
  });
  const a = alice.id;
  await insertTransactions(t.app, [
    // Every status, at the window's ragged first hour (raw rows), in whole days and in its last hours.
    swap('alpha', a, '2026-10-11T12:50:00Z', 'SUCCESS', '1000.5', '1.5'),
    swap('alpha', a, '2026-10-20T08:00:00Z', 'FAILED', '300', '2'),
    swap('alpha', a, '2026-11-02T09:15:00Z', 'REFUND', '64', '0.25'),
    swap('alpha', a, '2026-11-10T12:00:00Z', 'PENDING', '16', '0.125'),
    swap('alpha', a, '2026-11-10T11:00:00Z', 'SUCCESS', '250.25', '0.75'),
    // Before the 30-day window: in October's statement only.
    swap('alpha', a, '2026-10-05T00:00:00Z', 'SUCCESS', '4096', '8'),
    // Given as BETA, credited to Beta's owner.
    swap('BETA', a, '2026-10-25T10:00:00Z', 'SUCCESS', '512', '1'),
    // Given before anyone registered it (credited to nobody), then Bob registered it.
    swap('delta', null, '2026-10-26T10:00:00Z', 'SUCCESS', '128', '1'),
    swap('gamma', bob.id, '2026-11-03T10:00:00Z', 'SUCCESS', '2048', '4'),
  ]);
  await foldSwapDeltas(t.app);
  const [late] = await insertTransactions(t.app, [swap('alpha', a, '2026-10-31T23:30:00Z', 'PENDING', '32', '0.5')]);
  lateSettled = late?.id ?? '';
  // Alice's omega passes to Bob: her omega swap stays hers and is counted for nobody's omega; his new one is his.
  await insertTransactions(t.app, [swap('omega', a, '2026-10-28T10:00:00Z', 'SUCCESS', '1024', '2')]);
  await t.app.sql`delete from referral_codes where code = 'omega'`;
  await register('omega', bob.id);
  await register('delta', bob.id);
  await insertTransactions(t.app, [swap('omega', bob.id, '2026-11-04T10:00:00Z', 'SUCCESS', '8', '0.5')]);
}, 300_000);

afterAll(async () => {
  await web?.stop();
  await t?.stop();
});

let settling: Promise<unknown> | undefined;
/** The tracker settles October's last swap in November (once, whichever test asks first). */
const settleLate = () => {
  settling ??= t.app.sql`
    update transactions set status = 'SUCCESS', finalized_at = '2026-11-01T00:20:00Z' where id = ${lateSettled}`;
  return settling;
};

const month = (from: string, to: string) => ({ from: new Date(from), to: new Date(to) });

describe('an affiliate statement', () => {
  it('equals the overview for the same window, code by code and in all, before and after a late settlement', async () => {
    for (const step of ['before', 'after'] as const) {
      if (step === 'after') {
        await settleLate();
        await foldSwapDeltas(t.app);
      }
      for (const user of [alice, bob, admin]) {
        const viewer = viewerOf(user);
        const overview = await affiliateOverview(t.app, viewer, { range: '30d', codesPerPage: 100 }, NOW);
        const statement = await statementFor(t.app, overview.ownerId, {
          from: SINCE_30D,
          to: new Date(NOW.getTime() + 1),
        });
        const rate = (s: { succeeded: number; finished: number }) => (s.finished ? s.succeeded / s.finished : null);
        expect(statement.codes.map((c) => c.code).sort()).toEqual(overview.codes.map((c) => c.code).sort());
        for (const code of overview.codes) {
          const line = statement.codes.find((c) => c.code === code.code);
          expect(line && { ...line, volumeUsd: Number(line.volumeUsd), feesUsd: Number(line.feesUsd) }).toMatchObject({
            swaps: code.swaps,
            volumeUsd: code.volumeUsd,
            feesUsd: code.feesUsd,
          });
          expect(line && rate(line)).toBe(code.successRate);
        }
        expect({
          swaps: statement.totals.swaps,
          volumeUsd: Number(statement.totals.volumeUsd),
          feesUsd: Number(statement.totals.feesUsd),
          successRate: rate(statement.totals),
        }).toEqual({
          swaps: overview.totals.swaps,
          volumeUsd: overview.totals.volumeUsd,
          feesUsd: overview.totals.feesUsd,
          successRate: overview.totals.successRate,
        });
      }
    }
  });

  it('counts a swap in the month it was created, as it stands now; re-attributed codes keep what they were credited', async () => {
    await settleLate();
    const october = await statementFor(t.app, alice.id, month('2026-10-01T00:00:00Z', '2026-11-01T00:00:00Z'));
    const november = await statementFor(t.app, alice.id, month('2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z'));
    const byCode = (s: typeof october) => Object.fromEntries(s.codes.map((c) => [c.code, c]));
    // Settled in November, it counts in October, as a success.
    expect(byCode(october).alpha).toMatchObject({
      swaps: 4,
      succeeded: 3,
      finished: 4,
      volumeUsd: '5128.5',
      feesUsd: '10',
    });
    expect(byCode(october).Beta).toMatchObject({ swaps: 1, succeeded: 1, volumeUsd: '512' });
    // Alice's omega swap: omega is Bob's now, and Bob was never credited with it.
    expect(byCode(october).omega).toBeUndefined();
    expect(october.totals).toEqual({ swaps: 5, succeeded: 4, finished: 5, volumeUsd: '5640.5', feesUsd: '11' });
    expect(byCode(november).alpha).toMatchObject({ swaps: 3, succeeded: 1, finished: 2, volumeUsd: '250.25' });
    const bobs = await statementFor(t.app, bob.id, month('2026-10-01T00:00:00Z', '2026-12-01T00:00:00Z'));
    expect(Object.fromEntries(bobs.codes.map((c) => [c.code, c.swaps]))).toEqual({ delta: 0, gamma: 1, omega: 1 });
  });
});

describe('the statement downloads', () => {
  const through = async (user: SignedInUser) => {
    const res = await fetch(`${web.baseUrl}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: web.baseUrl },
      body: JSON.stringify({ email: user.email, password: PASSWORD }),
    });
    expect(res.status).toBe(200);
    return new Headers({ cookie: cookieHeader(res.headers) });
  };
  const get = (path: string, headers: Headers, input: unknown) =>
    fetch(`${web.baseUrl}${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers });
  const lines = async (res: Response) => (await res.text()).split('\r\n').filter(Boolean);
  const OCTOBER = { from: '2026-10-01', to: '2026-10-31' };

  /** The statement file's records as objects by column name (no field of these holds a comma). */
  const statementRecords = async (res: Response) => {
    const [header, ...rows] = await lines(res);
    expect(header).toBe(STATEMENT_FILE_COLUMNS.join(','));
    return rows.map((row) => Object.fromEntries(row.split(',').map((v, i) => [STATEMENT_FILE_COLUMNS[i], v])));
  };
  type StatementRecord = Awaited<ReturnType<typeof statementRecords>>[number];
  /** Each code's figures equal the swap lines beneath it, and the total row their sum. */
  const expectLinesReconcile = (records: StatementRecord[]) => {
    const blocks: { code: StatementRecord; swaps: StatementRecord[] }[] = [];
    for (const r of records) {
      if (r.record === STATEMENT_RECORDS.code) blocks.push({ code: r, swaps: [] });
      else if (r.record === STATEMENT_RECORDS.swap) {
        expect(blocks.at(-1)?.code.code, `swap ${r.id} under its own code`).toBe(r.code);
        expect(r.referral_code?.toLowerCase()).toBe(r.code?.toLowerCase());
        blocks.at(-1)?.swaps.push(r);
      }
    }
    const sum = (rows: StatementRecord[]) => rows.reduce((n, r) => n + Number(r.amount_usd), 0);
    for (const { code, swaps } of blocks) {
      const succeeded = swaps.filter((r) => r.status === 'SUCCESS');
      expect(
        [code.swaps, code.succeeded, code.finished, Number(code.volume_usd)],
        `code ${code.code}: its figures are its lines'`,
      ).toEqual([
        String(swaps.length),
        String(succeeded.length),
        String(swaps.filter((r) => r.status !== 'PENDING').length),
        sum(succeeded),
      ]);
    }
    const total = records.at(-1);
    expect(total?.record).toBe(STATEMENT_RECORDS.total);
    expect(Number(total?.swaps)).toBe(blocks.reduce((n, b) => n + b.swaps.length, 0));
    expect(Number(total?.volume_usd)).toBe(blocks.reduce((n, b) => n + Number(b.code.volume_usd), 0));
  };

  it("give an affiliate their own codes' statement with its swap lines beneath, in one file, and nobody else's", async () => {
    const asAlice = await through(alice);
    const statement = await get('/api/exports/affiliate-statement', asAlice, OCTOBER);
    expect(statement.status).toBe(200);
    expect(statement.headers.get('content-disposition')).toBe(
      'attachment; filename="statement-2026-10-01-to-2026-10-31.csv"',
    );
    // Five swap lines, two codes, the total.
    expect(statement.headers.get('x-total-count')).toBe('8');
    const records = await statementRecords(statement);
    expect(records.map((r) => [r.record, r.code, r.referral_code ?? ''])).toEqual([
      ['code', 'alpha', ''],
      ['swap', 'alpha', 'alpha'],
      ['swap', 'alpha', 'alpha'],
      ['swap', 'alpha', 'alpha'],
      ['swap', 'alpha', 'alpha'],
      ['code', 'Beta', ''],
      ['swap', 'Beta', 'BETA'],
      ['total', '', ''],
    ]);
    expect(records.at(-1)).toMatchObject({
      period_start: '2026-10-01',
      period_end: '2026-10-31',
      swaps: '5',
      succeeded: '4',
      finished: '5',
      volume_usd: '5640.5',
      fees_usd: '11',
    });
    expectLinesReconcile(records);

    const swaps = await get('/api/exports/affiliate-swaps', asAlice, OCTOBER);
    expect(swaps.headers.get('x-total-count')).toBe('5');
    const swapRows = await lines(swaps);
    expect(swapRows[0]).toBe(Object.keys(TRANSACTION_EXPORT_COLUMNS).join(','));

    for (const path of ['/api/exports/affiliate-statement', '/api/exports/affiliate-swaps']) {
      const theirs = await get(path, asAlice, { ...OCTOBER, ownerId: bob.id });
      expect(theirs.status).toBe(404);
      expect(await theirs.text()).not.toContain('gamma');
    }
  });

  it("give an admin anyone's, or everyone's, each code's figures equal to the statement's and to its lines", async () => {
    const asAdmin = await through(admin);
    const bobs = await statementRecords(
      await get('/api/exports/affiliate-statement', asAdmin, { ...OCTOBER, ownerId: bob.id }),
    );
    expect(bobs.filter((r) => r.record === 'code').map((r) => r.code)).toEqual(['omega', 'delta', 'gamma'].sort());
    expectLinesReconcile(bobs);
    const all = await statementRecords(
      await get('/api/exports/affiliate-statement', asAdmin, { from: '2026-10-01', to: '2026-11-30' }),
    );
    expectLinesReconcile(all);
    const expected = await statementFor(t.app, null, month('2026-10-01T00:00:00Z', '2026-12-01T00:00:00Z'));
    const codeRecords = all.filter((r) => r.record === 'code');
    expect(codeRecords.map((r) => r.code).sort()).toEqual(expected.codes.map((c) => c.code).sort());
    for (const c of expected.codes) {
      expect(codeRecords.find((r) => r.code === c.code)).toMatchObject({
        swaps: String(c.swaps),
        succeeded: String(c.succeeded),
        volume_usd: c.volumeUsd,
        fees_usd: c.feesUsd,
      });
    }
    expect(all.at(-1)).toMatchObject({ swaps: String(expected.totals.swaps), volume_usd: expected.totals.volumeUsd });
    const everyone = await get('/api/exports/affiliate-swaps', asAdmin, { from: '2026-10-01', to: '2026-11-30' });
    expect(everyone.headers.get('x-total-count')).toBe('10');
  });

  it('refuses a period that ends before it starts', async () => {
    const res = await get('/api/exports/affiliate-statement', await through(alice), {
      from: '2026-11-01',
      to: '2026-10-01',
    });
    expect(res.status).toBe(400);
  });
});
