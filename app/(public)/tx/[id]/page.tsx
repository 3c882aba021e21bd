import type { Metadata } from 'next';
import { PageMain } from '../../_components/PageMain';
import { TransactionTracker } from './TransactionTracker';

type Props = { params: Promise<{ id: string }> };

function decoded(id: string): string {
  try {
    return decodeURIComponent(id);
  } catch {
    return id;
  }
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Swap ${decoded((await params).id)} · Switchyard` };
}

export default async function TransactionPage({ params }: Props) {
  return (
    <PageMain>
      <TransactionTracker transactionId={decoded((await params).id)} />
    </PageMain>
  );
}
