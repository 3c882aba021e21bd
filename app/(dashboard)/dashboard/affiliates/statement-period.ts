/** The statement panel's month, as the statement's whole UTC days. Pure, for its tests. */

export const thisMonth = (now = new Date()) => now.toISOString().slice(0, 7);

/** `2026-02` → 2026-02-01 to 2026-02-28. */
export function monthPeriod(month: string): { from: string; to: string } {
  const [year, index] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(year, index, 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
}

export const statementHref = (
  kind: 'affiliate-statement' | 'affiliate-swaps',
  input: { from: string; to: string; ownerId?: string },
) => `/api/exports/${kind}?input=${encodeURIComponent(JSON.stringify(input))}`;
