import type { Metadata } from 'next';
import { SwapPage } from './_components/SwapPage';

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
  return <SwapPage referralFromUrl={referral} />;
}
