import Link from 'next/link';
import type { ReactNode } from 'react';
import { formatAmount } from '@/app/_kit/format';
import text from '@/app/_kit/text.module.css';

/** `0.5 ETH (ethereum) → BTC (bitcoin)`, chains muted; without chains, `0.5 ETH → BTC`. */
export function SwapRoute({
  srcAmount,
  srcSymbol,
  dstSymbol,
  srcChain,
  dstChain,
}: {
  srcAmount: string;
  srcSymbol?: string | null;
  dstSymbol?: string | null;
  srcChain?: string;
  dstChain?: string;
}) {
  if (srcChain === undefined) {
    return (
      <span>
        {formatAmount(srcAmount, srcSymbol)} → {dstSymbol}
      </span>
    );
  }
  return (
    <span>
      {formatAmount(srcAmount, srcSymbol)}{' '}
      <span className={text.muted}>
        ({srcChain}) → {dstSymbol} ({dstChain})
      </span>
    </span>
  );
}

/** A transaction id that opens its detail page. */
export function TransactionLink({ id, children }: { id: string; children?: ReactNode }) {
  return (
    <Link className={text.mono} href={`/dashboard/transactions/${id}`} title={id}>
      {children ?? id}
    </Link>
  );
}
