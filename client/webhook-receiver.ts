/**
 * A Switchyard webhook receiver: verifies every delivery with the `standardwebhooks` package (the
 * Standard Webhooks reference library, not Switchyard code), skips repeats by `webhook-id` (delivery
 * is at least once; a real receiver keeps the ids it has seen in its database) and answers 204 at once;
 * the work happens after the answer.
 *
 *   WEBHOOK_SECRET=whsec_… PORT=8080 npx tsx client/webhook-receiver.ts
 *
 * Prints one JSON line per verified event. The test suite runs this file as it is.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

export interface SwitchyardEvent {
  type: 'transaction.created' | 'transaction.status_changed' | 'transaction.final';
  timestamp: string;
  /** The same object `GET /api/v1/transaction/status` returns as `data.transaction`. */
  data: { id: string; status: 'PENDING' | 'SUCCESS' | 'FAILED' | 'REFUND'; [field: string]: unknown };
}

const MAX_BODY_BYTES = 1024 * 1024;

async function rawBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function createWebhookReceiver(
  secret: string,
  onEvent: (event: SwitchyardEvent, webhookId: string) => void | Promise<void>,
): Server {
  const webhook = new Webhook(secret);
  const seen = new Set<string>();
  return createServer(async (request, response) => {
    if (request.method !== 'POST') return void response.writeHead(405).end();
    let event: SwitchyardEvent;
    try {
      // Verify the exact bytes received: re-serialised JSON would not match the signature.
      event = webhook.verify(await rawBody(request), request.headers as Record<string, string>) as SwitchyardEvent;
    } catch (error) {
      const status = error instanceof WebhookVerificationError ? 401 : 400;
      return void response.writeHead(status).end();
    }
    const webhookId = String(request.headers['webhook-id']);
    response.writeHead(204).end();
    if (seen.has(webhookId)) return;
    seen.add(webhookId);
    await onEvent(event, webhookId);
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) throw new Error('Set WEBHOOK_SECRET to the whsec_… secret the dashboard showed');
  const server = createWebhookReceiver(secret, (event, webhookId) => {
    console.log(
      JSON.stringify({ webhookId, type: event.type, transactionId: event.data.id, status: event.data.status }),
    );
  });
  server.listen(Number(process.env.PORT ?? 8080), process.env.HOST ?? '127.0.0.1', () => {
    const address = server.address();
    console.log(JSON.stringify({ listening: typeof address === 'object' && address ? address.port : address }));
  });
  process.once('SIGTERM', () => server.close());
}
