import { metricsRoute } from '@/server/http/next';

// See server/http/next.ts.
export const dynamic = 'force-dynamic';

export const GET = metricsRoute();
