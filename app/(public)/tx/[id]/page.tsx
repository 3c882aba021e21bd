import type { Metadata } from 'next';
import { connection } from 'next/server';
import layout from '@/app/_kit/layout.module.css';
import { Notice } from '@/app/_kit/Notice';
import { getAppContext } from '@/server/context';
import { readTrackerPage, type TrackerPage } from '@/server/transactions/tracker-page';
import { PageMain } from '../../_components/PageMain';
import { type TrackerInitial, TransactionTracker } from './TransactionTracker';

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** What a hash reported without JavaScript came to (`/tx/<id>/report` sends the answer's code back). */
const REPORT_ERRORS: Record<string, string> = {
  VALIDATION_ERROR: "That is not a transaction hash for this swap's source chain. Check it and paste it again.",
  RATE_LIMITED: 'Too many reports from your connection for now. Wait a minute, then send it again.',
  NOT_FOUND: 'This swap was not found.',
};
const REPORT_ERROR_DEFAULT =
  'The hash was not recorded for this swap. Check that it is the transaction that paid this swap, or try again in a moment.';

function reportNotice(params: Record<string, string | string[] | undefined>) {
  if (params.reported === '1') {
    return (
      <Notice tone="success" role="status" className={layout.spaced}>
        Got it: the hash was recorded and the swap is being followed. Reload this page to see it move on.
      </Notice>
    );
  }
  const code = typeof params.reportError === 'string' ? params.reportError : undefined;
  if (code === undefined) return null;
  return (
    <Notice tone="error" role="alert" title="Could not record the hash." className={layout.spaced}>
      {REPORT_ERRORS[code] ?? REPORT_ERROR_DEFAULT}
    </Notice>
  );
}

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

export default async function TransactionPage({ params, searchParams }: Props) {
  const transactionId = decoded((await params).id);
  return (
    <PageMain>
      {reportNotice(await searchParams)}
      <TransactionTracker transactionId={transactionId} initial={await initialView(transactionId)} />
    </PageMain>
  );
}
