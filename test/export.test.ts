import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_APPLICATION_NAME } from '../server/exports/stream';
import { TRANSACTION_EXPORT_COLUMNS } from '../server/exports/transactions';
import { startTestApp, type TestApp } from './support/app';
import { type BuiltWeb, ensureWebBuild, startBuiltWeb } from './support/built-web';
import { cookieHeader, PASSWORD, type SignedInUser, signedInUser } from './support/dashboard';
import { waitUntil } from './support/processes';
import { insertTransactions } from './support/seed-transactions';

/** The transactions export through the built web process (Next's route handler, as production serves it). */
let t: TestApp;
let web: BuiltWeb;
let support: SignedInUser;
let affiliate: SignedInUser;

const HEADER = Object.keys(TRANSACTION_EXPORT_COLUMNS);
const BULK_ROWS = 200_000;
const BULK_PROVIDER = 'BULKEXPORT';

beforeAll(async () => {
  ensureWebBuild();
  t = await startTestApp();
  web = await startBuiltWeb(t);
  support = await signedInThroughWeb('support');
  affiliate = await signedInThroughWeb('affiliate');
}, 300_000);

/** The web process signs its own sessions (an AUTH_SECRET of its own): a user signed in through it. */
async function signedInThroughWeb(role: 'support' | 'affiliate'): Promise<SignedInUser> {
  const user = await signedInUser(t.app, role);
  const res = await fetch(`${web.baseUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: web.baseUrl },
    body: JSON.stringify({ email: user.email, password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  return { ...user, headers: new Headers({ cookie: cookieHeader(res.headers) }) };
}

afterAll(async () => {
  await web?.stop();
  await t?.stop();
});

const exportUrl = (input: unknown) =>
  `${web.baseUrl}/api/exports/transactions?input=${encodeURIComponent(JSON.stringify(input))}`;
const download = (user: SignedInUser | null, input: unknown, init: RequestInit = {}) =>
  fetch(exportUrl(input), { ...init, headers: user ? user.headers : {} });

/** RFC 4180 records, strictly: quoted fields may hold `"`, `,`, CR and LF; every record ends CRLF. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === '"') {
      i++;
      for (;;) {
        const quote = text.indexOf('"', i);
        if (quote === -1) throw new Error('unterminated quoted field');
        field += text.slice(i, quote);
        i = quote + 1;
        if (text[i] !== '"') break;
        field += '"';
        i++;
      }
    } else {
      const stop = text.slice(i).search(/[,\r]/);
      if (stop === -1) throw new Error('record without CRLF');
      field += text.slice(i, i + stop);
      i += stop;
    }
    if (text[i] === ',') {
      record.push(field);
      field = '';
      i++;
    } else if (text.startsWith('\r\n', i)) {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 2;
    } else throw new Error(`unexpected ${JSON.stringify(text[i])} at ${i}`);
  }
  return records;
}

const byColumn = (records: string[][]) =>
  records.slice(1).map((r) => Object.fromEntries(HEADER.map((name, k) => [name, r[k] ?? ''])));

/** The export's query while it is open: Postgres still has its transaction. */
const openExports = async () => {
  const [row] = await t.app.sql<{ n: number }[]>`
    select count(*)::int as n from pg_stat_activity
    where datname = current_database() and application_name = ${EXPORT_APPLICATION_NAME} and state <> 'idle'`;
  return row?.n ?? 0;
};

describe('the transactions export', () => {
  it('quotes per RFC 4180, neutralises formulas, keeps decimals exact and times in ISO-8601 UTC', async () => {
    const provider = `Q${randomBytes(4).toString('hex').toUpperCase()}`;
    const hostile = {
      wallet: '=HYPERLINK("http://evil.test","click"),x',
      recipient: '+1 line\r\nbreak',
      referralCode: '@SUM(1+1)',
    };
    await insertTransactions(t.app, [
      {
        ...hostile,
        provider,
        status: 'SUCCESS',
        createdAt: new Date('2026-03-01T00:00:00.007Z'),
        amountUsd: '123456789012345678901234567890.12345678',
        feeUsd: '0.10000000',
        srcAsset: { id: 1, symbol: '-2+3', chain: 'ethereum' },
        dstAsset: { id: 2, symbol: 'USD₮0', chain: 'tron' },
      },
      { wallet: '\tTAB', recipient: '\rCR', provider, createdAt: new Date('2026-02-28T23:59:59.999Z'), amountUsd: '5' },
    ]);
    const res = await download(support, { provider, sort: { field: 'createdAt', direction: 'asc' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="transactions-\d{8}T\d{6}Z\.csv"$/);
    expect(res.headers.get('x-total-count')).toBe('2');
    const records = parseCsv(await res.text());
    expect(records[0]).toEqual(HEADER);
    const [pending, success] = byColumn(records);
    expect(success).toMatchObject({
      created_at: '2026-03-01T00:00:00.007Z',
      finalized_at: '2026-03-01T00:00:00.007Z',
      status: 'SUCCESS',
      amount_usd: '123456789012345678901234567890.12345678',
      fee_usd: '0.1',
      wallet: `'${hostile.wallet}`,
      recipient_wallet: `'${hostile.recipient}`,
      referral_code: `'${hostile.referralCode}`,
      src_asset: "'-2+3",
      dst_asset: 'USD₮0',
      dst_chain: 'tron',
    });
    expect(pending).toMatchObject({
      created_at: '2026-02-28T23:59:59.999Z',
      finalized_at: '',
      wallet: "'\tTAB",
      recipient_wallet: "'\rCR",
      fee_usd: '',
      outbound_hash: '',
    });
  });

  it('is for support staff and admins, as the Transactions page is: an affiliate gets none of it', async () => {
    const provider = `G${randomBytes(4).toString('hex').toUpperCase()}`;
    await insertTransactions(t.app, [
      { wallet: '0xaaa', recipient: '0xbbb', provider, referralOwnerId: affiliate.id, createdAt: new Date() },
      { wallet: '0xccc', recipient: '0xddd', provider, referralOwnerId: 'someone-else', createdAt: new Date() },
    ]);
    const refused = await download(affiliate, { provider });
    expect(refused.status).toBe(403);
    expect(await refused.text()).not.toContain('0xccc');
    expect((await download(null, { provider })).status).toBe(401);
    const allowed = await download(support, { provider });
    expect(allowed.status).toBe(200);
    expect(parseCsv(await allowed.text())).toHaveLength(3);
  });

  it("refuses an input the page's schema refuses, in words", async () => {
    const res = await download(support, { from: '2026-02-01', to: '2026-01-01' });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringMatching(/end date/),
    });
    expect(
      (await fetch(`${web.baseUrl}/api/exports/transactions?input=%7B`, { headers: support.headers })).status,
    ).toBe(400);
  });

  describe('with 200,000 matches', () => {
    beforeAll(async () => {
      const [template] = await insertTransactions(t.app, [
        { wallet: '0xbulk', recipient: '0xbulk2', provider: BULK_PROVIDER, createdAt: new Date('2026-01-01Z') },
      ]);
      const columns = (
        await t.app.sql<{ name: string }[]>`
          select column_name as name from information_schema.columns
          where table_name = 'transactions' and is_generated = 'NEVER' and column_name not in ('id', 'lock_id', 'created_at')`
      ).map((c) => c.name);
      // Copies of one swap, without the lock rows their foreign key would ask for (triggers off for the load).
      await t.app.sql.begin(async (sql) => {
        await sql`set local session_replication_role = replica`;
        await sql`
          insert into transactions (id, lock_id, created_at, ${sql.unsafe(columns.join(', '))})
          select 'tx_bulk_' || g, 'lk_bulk_' || g, t.created_at - g * interval '1 second', ${sql.unsafe(columns.map((c) => `t.${c}`).join(', '))}
          from transactions t, generate_series(1, ${BULK_ROWS - 1}) g where t.id = ${template?.id ?? ''}`;
      });
    }, 300_000);

    it('streams every row while the query is still open, not after reading them all', async () => {
      const res = await download(support, { provider: BULK_PROVIDER });
      expect(res.headers.get('x-total-count')).toBe(String(BULK_ROWS));
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const first = await reader.read();
      expect(first.done).toBe(false);
      // The first bytes are here and the query has not finished: the rows are not gathered first.
      expect(await openExports()).toBe(1);
      const decoder = new TextDecoder();
      let text = decoder.decode(first.value, { stream: true });
      let lines = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        const cut = text.lastIndexOf('\r\n');
        lines += text.slice(0, cut + 2).split('\r\n').length - 1;
        text = text.slice(cut + 2);
      }
      expect(text).toBe('');
      expect(lines).toBe(BULK_ROWS + 1);
      expect(await waitUntil(async () => (await openExports()) === 0)).toBe(true);
    }, 300_000);

    it('stops the query when the client goes away', async () => {
      const client = new AbortController();
      const res = await download(support, { provider: BULK_PROVIDER }, { signal: client.signal });
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      await reader.read();
      expect(await openExports()).toBe(1);
      client.abort();
      expect(await waitUntil(async () => (await openExports()) === 0, { timeoutMs: 30_000 })).toBe(true);
      // Its connection is back in the pool: another export runs to the end.
      const again = await download(support, { provider: BULK_PROVIDER, query: 'tx_bulk_7' });
      expect(parseCsv(await again.text())).toHaveLength(2);
    }, 120_000);
  });
});
