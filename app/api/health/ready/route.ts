import { healthRoute } from '@/server/http/next';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = healthRoute('ready');
