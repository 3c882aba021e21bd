import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { PUBLIC_ID_PATTERN } from '@/server/ids';
import { PageMain } from './_components/PageMain';
import { SwapPage } from './_swap/SwapPage';
import { EXECUTED_SWAP_PARAM } from './_swap/swap-address';

export const metadata: Metadata = {
  title: 'Swap · Switchyard',
  description: 'Compare cross-chain swap routes, lock a quote and track the swap — no sign-in needed.',
};

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export default async function Home({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  // The swap executed on this page before a reload: it lives on at its own page, deposit details and all.
  const executed = first(params[EXECUTED_SWAP_PARAM]);
  if (executed && PUBLIC_ID_PATTERN.test(executed) && executed.startsWith('tx_')) redirect(`/tx/${executed}`);
  const referral = first(params.ref) ?? first(params.referral) ?? null;
  return (
    <PageMain>
      <SwapPage referralFromUrl={referral} />
    </PageMain>
  );
}
