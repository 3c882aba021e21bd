/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  serverExternalPackages: ['postgres', 'bullmq', 'ioredis', 'pino'],
  // `npm test` type-checks the whole tree once with tsc; doing it again inside next build only costs CI time.
  typescript: { ignoreBuildErrors: true },
  // The public API answers `/api/v1/x/` as `/api/v1/x` (in its envelope, as the lean server does) rather
  // than with Next's 308; pages keep the redirect, which proxy.ts now does.
  skipTrailingSlashRedirect: true,
  // forbidden(): a dashboard page the viewer's role may not see answers 403.
  experimental: { authInterrupts: true },
};

export default nextConfig;
