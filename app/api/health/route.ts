import { healthRoute } from '@/server/http/next';

export const GET = healthRoute('live');
