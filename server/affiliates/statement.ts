import { isNotNull, type SQL, sql } from 'drizzle-orm';
import { transactions } from '../../drizzle/schema';
import type { Viewer } from '../auth/roles';
import type { AppContext } from '../context';
import type { CsvExport } from '../exports/stream';
import { exportTransactions, TRANSACTION_EXPORT_HEADER } from '../exports/transactions';
import type { AffiliateStatementInput } from '../schemas/affiliates';
import { dayAfter, dayStart } from '../schemas/days';
import { transactionSearchInput } from '../schemas/transactions';
import { type CodeSums, creditedSums } from './attribution';
import { affiliateScope } from './codes';

/** `[from, to)`. */
export interface StatementWindow {
  from: Date;
  to: Date;
}

export const statementWindow = ({ from, to }: Pick<AffiliateStatementInput, 'from' | 'to'>): StatementWindow => ({
  from: dayStart(from),
  to: dayAfter(to),
});

/** 1000.50000000 → 1000.5 */
const plainDecimal = (value: string | null) => (value ?? '0').replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');

function figures(sums: CodeSums | undefined) {
  return {
    swaps: Number(sums?.swaps ?? 0),
    succeeded: Number(sums?.succeeded ?? 0),
    finished: Number(sums?.finished ?? 0),
    volumeUsd: plainDecimal(sums?.volumeUsd ?? null),
    feesUsd: plainDecimal(sums?.feesUsd ?? null),
  };
}

/**
 * What each code in scope was credited with over the window, and in all: the overview's own sums
 * (`creditedSums`) over the same window, so a statement and the dashboard agree to the cent. A swap
 * counts in the window it was created in, as it stands now: one settled after the window closed
 * counts there as settled. Amounts are exact decimal strings.
 */
export async function statementFor(ctx: AppContext, ownerId: string | null, window: StatementWindow) {
  const inScope = ownerId === null ? ctx.sql`true` : ctx.sql`rc.owner_id = ${ownerId}`;
  const [codes, sums] = await Promise.all([
    ctx.sql<{ code: string; ownerId: string; ownerEmail: string | null }[]>`
      select rc.code, rc.owner_id as "ownerId", u.email as "ownerEmail"
      from referral_codes rc left join auth_user u on u.id = rc.owner_id
      where ${inScope}
      order by u.email nulls last, rc.owner_id, rc.code`,
    creditedSums(ctx, ownerId, 'day', window.from, new Date(window.to.getTime() - 1)),
  ]);
  const byCode = new Map(sums.flatMap((s) => (s.code === null ? [] : [[s.code, s] as const])));
  return {
    ownerId,
    from: window.from,
    to: window.to,
    codes: codes.map((c) => ({ ...c, ...figures(byCode.get(c.code)) })),
    totals: figures(sums.find((s) => s.code === null && s.bucket === null)),
  };
}
export type AffiliateStatement = Awaited<ReturnType<typeof statementFor>>;

/** The statement of the viewer's codes (an admin's: anyone's, or everyone's) for whole UTC days. */
export function affiliateStatement(ctx: AppContext, viewer: Viewer, input: AffiliateStatementInput) {
  return statementFor(ctx, affiliateScope(viewer, input.ownerId).ownerId, statementWindow(input));
}

export const STATEMENT_COLUMNS = [
  'code',
  'owner',
  'period_start',
  'period_end',
  'swaps',
  'succeeded',
  'finished',
  'volume_usd',
  'fees_usd',
] as const;

/** What a statement file's row is: a code's figures, one swap credited to the code above it, or the total. */
export const STATEMENT_RECORDS = { code: 'code', swap: 'swap', total: 'total' } as const;

/** The statement file: the record type, the statement's columns, then the transactions export's for a swap. */
export const STATEMENT_FILE_COLUMNS = ['record', ...STATEMENT_COLUMNS, ...TRANSACTION_EXPORT_HEADER] as const;

/** The two columns the swap lines are read with ahead of the export's: whose code, and which (any case). */
const CREDITED = { owner: sql`${transactions.referralOwnerId}`, code: sql`lower(${transactions.referralCode})` };
const creditKey = (owner: string | null, code: string) => `${owner ?? ''} ${code.toLowerCase()}`;

/**
 * One file for a statement: each code's figures with the swaps credited to it beneath, one line each in
 * the transactions export's columns, then the total. The swap lines stream from Postgres grouped by
 * code, each code's record written ahead of its first; codes with no swap follow, in the statement's
 * order, then the total row.
 */
export async function affiliateStatementCsv(
  ctx: AppContext,
  viewer: Viewer,
  input: AffiliateStatementInput,
  { signal }: { signal?: AbortSignal } = {},
): Promise<CsvExport> {
  const { ownerId } = affiliateScope(viewer, input.ownerId);
  const window = statementWindow(input);
  const statement = await statementFor(ctx, ownerId, window);
  const swapBlank = TRANSACTION_EXPORT_HEADER.map(() => null);
  const figureBlank = STATEMENT_COLUMNS.slice(2).map(() => null);
  const summary = (record: string, code: string | null, owner: string | null, f: ReturnType<typeof figures>) => [
    record,
    code,
    owner,
    input.from,
    input.to,
    String(f.swaps),
    String(f.succeeded),
    String(f.finished),
    f.volumeUsd,
    f.feesUsd,
    ...swapBlank,
  ];
  const codes = new Map(statement.codes.map((c) => [creditKey(c.ownerId, c.code), c]));
  const unwritten = new Set(codes.keys());
  return exportTransactions(ctx, statementSearch(window), {
    signal,
    extra: creditedSwapsCondition(ownerId),
    leading: CREDITED,
    order: [transactions.referralOwnerId, CREDITED.code, transactions.createdAt, transactions.id],
    header: STATEMENT_FILE_COLUMNS,
    filename: `statement-${input.from}-to-${input.to}.csv`,
    around: {
      added: statement.codes.length + 1,
      row: ([owner = null, code = '', ...swap]) => {
        const key = creditKey(owner, code ?? '');
        const credited = codes.get(key);
        const line = [
          STATEMENT_RECORDS.swap,
          credited?.code ?? code,
          credited ? (credited.ownerEmail ?? credited.ownerId) : owner,
          ...figureBlank,
          ...swap,
        ];
        if (!credited || !unwritten.delete(key)) return [line];
        return [
          summary(STATEMENT_RECORDS.code, credited.code, credited.ownerEmail ?? credited.ownerId, credited),
          line,
        ];
      },
      end: () => [
        ...[...unwritten].flatMap((key) => {
          const c = codes.get(key);
          return c ? [summary(STATEMENT_RECORDS.code, c.code, c.ownerEmail ?? c.ownerId, c)] : [];
        }),
        summary(STATEMENT_RECORDS.total, null, null, statement.totals),
      ],
    },
  });
}

/** The search a statement's swaps are read with: created in the window, oldest first. */
const statementSearch = (window: StatementWindow) =>
  transactionSearchInput.parse({
    from: window.from,
    to: new Date(window.to.getTime() - 1),
    sort: { field: 'createdAt', direction: 'asc' },
  });

/** The swaps a statement counts, credited to the codes in scope, as the transactions export writes them. */
export function creditedSwapsCondition(ownerId: string | null): SQL {
  const t = transactions;
  const owner = ownerId === null ? isNotNull(t.referralOwnerId) : sql`${t.referralOwnerId} = ${ownerId}`;
  return sql`${owner} and exists (select 1 from referral_codes rc
    where rc.owner_id = ${t.referralOwnerId} and lower(rc.code) = lower(${t.referralCode}))`;
}

export function exportStatementSwaps(
  ctx: AppContext,
  viewer: Viewer,
  input: AffiliateStatementInput,
  { signal }: { signal?: AbortSignal } = {},
): Promise<CsvExport> {
  const { ownerId } = affiliateScope(viewer, input.ownerId);
  return exportTransactions(ctx, statementSearch(statementWindow(input)), {
    signal,
    extra: creditedSwapsCondition(ownerId),
    filename: `statement-swaps-${input.from}-to-${input.to}.csv`,
  });
}
