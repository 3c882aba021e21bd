import { getAppContext } from '@/server/context';
import { handleApiRequest } from '@/server/http/routes';

export const dynamic = 'force-dynamic';

const TRACK_PATH = '/api/v1/transaction/track';
/** A form with one hash field; anything larger is not one. */
const MAX_FORM_BYTES = 4096;

/**
 * "I've sent it" without JavaScript: the form posts here, the hash goes through the public track
 * endpoint as it is (its validation, rate limit and log), and the browser goes back to the swap's page
 * with the outcome's code (never text from the request, which a crafted link could fill).
 */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const back = (outcome: string) =>
    new Response(null, {
      status: 303,
      headers: { location: `/tx/${encodeURIComponent(id)}?${outcome}`, 'cache-control': 'no-store' },
    });
  const size = Number(request.headers.get('content-length') ?? 0);
  const form = size <= MAX_FORM_BYTES ? await request.formData().catch(() => null) : null;
  if (!form) return back('reportError=VALIDATION_ERROR');
  const txHash = String(form.get('txHash') ?? '').trim();
  const headers = new Headers(request.headers);
  headers.set('content-type', 'application/json');
  headers.delete('content-length');
  const track = new Request(new URL(TRACK_PATH, request.url), {
    method: 'POST',
    headers,
    body: JSON.stringify({ transactionId: id, ...(txHash ? { txHash } : {}) }),
  });
  const answer = await handleApiRequest(getAppContext(), track, TRACK_PATH);
  if (answer.ok) return back('reported=1');
  const body = (await answer.json().catch(() => null)) as { error?: { code?: string } } | null;
  return back(`reportError=${encodeURIComponent(body?.error?.code ?? 'UNKNOWN')}`);
}
