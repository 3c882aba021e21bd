import styles from './fee-summary.module.css';
import { formatAmount, formatUsd } from './format';

/** A fee line as any answer carries it; lines without an amount and a currency are not shown. */
interface FeeLine {
  label?: string;
  amount?: string;
  currency?: string;
  amountUsd?: number | null;
  /** A line the provider did not state: its quoted amount stands for it (see the server's FeeItem). */
  basis?: 'quoted' | 'pending';
}

const BASIS_TEXT = {
  quoted: 'as quoted; the provider does not report it',
  pending: 'as quoted; not charged yet',
} as const;

const isLine = (value: unknown): value is FeeLine & { amount: string; currency: string } =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as FeeLine).amount === 'string' &&
  typeof (value as FeeLine).currency === 'string';

/** The fee lines of a fee's `details`, which are provider-specific and may be no list at all. */
export const feeLines = (details: unknown) => (Array.isArray(details) ? details.filter(isLine) : []);

const sameCents = (a: number, b: number) => Math.round(a * 100) === Math.round(b * 100);

/**
 * A fee as every view shows it: the server's USD total, then each line in its own token with its USD
 * value. Where the settled fee differs from the quoted one, the total says whether it is the actual fee
 * or, while a line is still only quoted, an estimate; lines the provider did not state say so.
 */
export function FeeSummary({
  usd,
  quotedUsd,
  details,
}: {
  usd: number | string | null | undefined;
  /** The quoted fee, when `usd` may be the settled one. */
  quotedUsd?: number | null;
  details: unknown;
}) {
  const total = usd == null || usd === '' ? null : Number(usd);
  const lines = feeLines(details);
  const differs = total !== null && quotedUsd != null && !sameCents(total, quotedUsd);
  const settled = !lines.some((line) => line.basis === 'pending');
  return (
    <span className={styles.fee}>
      <span className={styles.total}>
        <span data-testid="fee-total">{total === null ? 'USD value unknown' : formatUsd(total)}</span>
        {differs ? (
          <span className={styles.qualifier} data-testid="fee-quoted">
            {' '}
            {settled ? 'actual' : 'estimated'} · quoted {formatUsd(quotedUsd)}
          </span>
        ) : null}
      </span>
      {lines.length > 0 && (
        <ul className={styles.lines} aria-label="Fee breakdown" data-testid="fee-lines">
          {lines.map((line, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: fee lines have no id and never reorder
            <li key={index}>
              {line.label ? `${line.label}: ` : null}
              <span className={styles.lineValue}>
                {formatAmount(line.amount, line.currency)}
                {line.amountUsd != null ? ` · ${formatUsd(line.amountUsd)}` : null}
              </span>
              {line.basis && BASIS_TEXT[line.basis] ? (
                <span className={styles.basis} data-testid="fee-line-basis">
                  {' '}
                  ({BASIS_TEXT[line.basis]})
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </span>
  );
}
