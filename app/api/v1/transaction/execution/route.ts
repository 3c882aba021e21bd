import { apiRoute } from '@/server/http/next';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute('/api/v1/transaction/execution');
