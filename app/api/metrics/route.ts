import { metricsRoute } from '@/server/http/next';

export const GET = metricsRoute();
