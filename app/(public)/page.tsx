import type { Metadata } from 'next';
import { PageMain } from './_components/PageMain';
import { SwapPage } from './_swap/SwapPage';

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
  const referral = first(params.ref) ?? first(params.referral) ?? null;
  return (
    <PageMain>
      <SwapPage referralFromUrl={referral} />
    </PageMain>
  );
}
