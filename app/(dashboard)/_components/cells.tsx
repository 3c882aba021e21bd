import Link from 'next/link';
import type { ReactNode } from 'react';
import { formatAmount } from '@/app/_kit/format';
import text from '@/app/_kit/text.module.css';
import { chainName, providerName } from '@/server/catalog/names';

/** `0.5 ETH (Ethereum) → BTC (Bitcoin)`, chains muted and named; without chains, `0.5 ETH → BTC`. */
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
        ({chainName(srcChain)}) → {dstSymbol} ({dstChain === undefined ? '' : chainName(dstChain)})
      </span>
    </span>
  );
}

/** A table column of provider keys, shown by name. */
export const providerCell = {
  cell: ({ getValue }: { getValue: () => string }) => providerName(getValue()),
};

/** A transaction id that opens its detail page. */
export function TransactionLink({ id, children }: { id: string; children?: ReactNode }) {
  return (
    <Link className={text.mono} href={`/dashboard/transactions/${id}`} title={id}>
      {children ?? id}
    </Link>
  );
}
