import { apiRoute } from '@/server/http/next';

// See server/http/next.ts.
export const dynamic = 'force-dynamic';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute('/api/transaction/history');
