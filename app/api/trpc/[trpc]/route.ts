import { handleTrpcRequest } from '@/server/trpc/handler';

const handler = (request: Request) => handleTrpcRequest(request);

export { handler as GET, handler as POST };
