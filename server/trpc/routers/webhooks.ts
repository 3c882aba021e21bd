import { endpointDeliveries, transactionDeliveries } from '../../webhooks/deliveries';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  enableWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookSecret,
} from '../../webhooks/endpoints';
import { redeliverWebhook } from '../../webhooks/redeliver';
import {
  createWebhookEndpointInput,
  redeliverWebhookInput,
  webhookEndpointDeliveriesInput,
  webhookEndpointInput,
  webhookTransactionDeliveriesInput,
} from '../../webhooks/schemas';
import { affiliateProcedure, router, supportProcedure } from '../init';

export const webhooksRouter = router({
  list: affiliateProcedure.query(({ ctx }) => listWebhookEndpoints(ctx.app, ctx.viewer)),
  create: affiliateProcedure
    .input(createWebhookEndpointInput)
    .mutation(({ ctx, input }) => createWebhookEndpoint(ctx.app, ctx.viewer, input, ctx.origin)),
  delete: affiliateProcedure
    .input(webhookEndpointInput)
    .mutation(({ ctx, input }) => deleteWebhookEndpoint(ctx.app, ctx.viewer, input, ctx.origin)),
  rotateSecret: affiliateProcedure
    .input(webhookEndpointInput)
    .mutation(({ ctx, input }) => rotateWebhookSecret(ctx.app, ctx.viewer, input, ctx.origin)),
  enable: affiliateProcedure
    .input(webhookEndpointInput)
    .mutation(({ ctx, input }) => enableWebhookEndpoint(ctx.app, ctx.viewer, input, ctx.origin)),
  deliveries: affiliateProcedure
    .input(webhookEndpointDeliveriesInput)
    .query(({ ctx, input }) => endpointDeliveries(ctx.app, ctx.viewer, input)),
  transactionDeliveries: supportProcedure
    .input(webhookTransactionDeliveriesInput)
    .query(({ ctx, input }) => transactionDeliveries(ctx.app, ctx.viewer, input)),
  redeliver: affiliateProcedure
    .input(redeliverWebhookInput)
    .mutation(({ ctx, input }) => redeliverWebhook(ctx.app, ctx.viewer, input, ctx.origin)),
});
