import { affiliateSwapsExportRoute } from '@/server/exports/http';

export const dynamic = 'force-dynamic';

export const GET = (request: Request) => affiliateSwapsExportRoute(request);
