import type { Metadata } from 'next';
import { connection } from 'next/server';
import { getAppContext } from '@/server/context';
import { readTrackerPage, type TrackerPage } from '@/server/transactions/tracker-page';
import { PageMain } from '../../_components/PageMain';
import { type TrackerInitial, TransactionTracker } from './TransactionTracker';

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

/**
 * The swap as the server reads it now; undefined when it cannot be read (a backing service down),
 * and the browser then loads it through the API, with its own retry.
 */
async function initialView(transactionId: string): Promise<TrackerInitial | null | undefined> {
  await connection();
  const ctx = getAppContext();
  try {
    const view: TrackerPage | null = await readTrackerPage(ctx, transactionId);
    // The same objects the status, execution, events and catalog endpoints send; the browser's types
    // of them come from the published OpenAPI document, which names a few of their strings more narrowly.
    return view as TrackerInitial | null;
  } catch (error) {
    ctx.log.warn({ err: error, transactionId }, 'could not read the swap for its page; the browser loads it');
    return undefined;
  }
}

export default async function TransactionPage({ params }: Props) {
  const transactionId = decoded((await params).id);
  return (
    <PageMain>
      <TransactionTracker transactionId={transactionId} initial={await initialView(transactionId)} />
    </PageMain>
  );
}
