import { toNextJsHandler } from 'better-auth/next-js';
import { handleAuthRequest } from '@/server/auth/handler';

export const { GET, POST } = toNextJsHandler(handleAuthRequest);
