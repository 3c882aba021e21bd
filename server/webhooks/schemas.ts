import { z } from 'zod';
import { recordId, storable } from '../schemas/common';

/** Webhook inputs and vocabulary. Pure zod: shared by tRPC procedures, client components, tests and the drizzle schema. */

export const WEBHOOK_SCOPES = ['affiliate', 'all'] as const;
export type WebhookScope = (typeof WEBHOOK_SCOPES)[number];
export const WEBHOOK_EVENT_TYPES = [
  'transaction.created',
  'transaction.status_changed',
  'transaction.final',
  'transaction.late',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const WEBHOOK_MESSAGE_STATES = ['pending', 'delivered', 'failed'] as const;

export const WEBHOOK_ENDPOINT_ID_PATTERN = /^whe_[0-9A-Za-z]{22}$/;
export const WEBHOOK_MESSAGE_ID_PATTERN = /^msg_[0-9A-Za-z]{22}$/;

const endpointId = z.string().trim().regex(WEBHOOK_ENDPOINT_ID_PATTERN, 'not a webhook endpoint id');

export const createWebhookEndpointInput = z.object({
  url: storable(z.string().trim().min(1, 'Enter the URL deliveries go to').max(2048)),
  /** `all` (every swap) is for admins; affiliates always get their own referred swaps. */
  scope: z.enum(WEBHOOK_SCOPES).default('affiliate'),
  description: storable(z.string().trim().max(120)).optional(),
  /** Also send `transaction.late` when a pending swap passes its route's p90 × LATE_FACTOR. */
  lateEvents: z.boolean().default(false),
});
export type CreateWebhookEndpointInput = z.output<typeof createWebhookEndpointInput>;

export const webhookEndpointInput = z.object({ endpointId });
export type WebhookEndpointInput = z.output<typeof webhookEndpointInput>;

export const webhookEndpointDeliveriesInput = z.object({
  endpointId,
  limit: z.number().int().min(1).max(200).default(25),
});
export type WebhookEndpointDeliveriesInput = z.output<typeof webhookEndpointDeliveriesInput>;

export const webhookTransactionDeliveriesInput = z.object({ transactionId: recordId });
export type WebhookTransactionDeliveriesInput = z.output<typeof webhookTransactionDeliveriesInput>;

export const redeliverWebhookInput = z.object({
  messageId: z.string().trim().regex(WEBHOOK_MESSAGE_ID_PATTERN, 'not a webhook message id'),
});
export type RedeliverWebhookInput = z.output<typeof redeliverWebhookInput>;
