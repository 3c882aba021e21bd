import { type NextRequest, NextResponse } from 'next/server';
import { newNonce, securityHeaders } from './server/auth/security-headers';

/**
 * Per-request CSP nonce and security headers. Next reads the nonce from the request's CSP header
 * and stamps it on its own scripts, so every page this matches must render dynamically.
 * Authorization is not decided here: every tRPC procedure and dashboard layout checks the session.
 */
export function proxy(request: NextRequest) {
  // Next's own trailing-slash redirect is off (next.config.mjs) so the public API can answer in its
  // envelope; every path this matches (pages, tRPC, auth) keeps the canonical-URL redirect.
  const { pathname } = request.nextUrl;
  if (pathname.length > 1 && pathname.endsWith('/')) {
    // Set as a pathname, never parsed as a URL: `//host/` must not become a redirect to another host.
    const canonical = new URL(request.url);
    canonical.pathname = pathname.replace(/\/+$/, '') || '/';
    return NextResponse.redirect(canonical, 308);
  }
  const nonce = newNonce();
  const secureTransport =
    request.nextUrl.protocol === 'https:' || request.headers.get('x-forwarded-proto')?.split(',')[0] === 'https';
  const headers = securityHeaders(nonce, { development: process.env.NODE_ENV === 'development', secureTransport });
  const csp = headers['Content-Security-Policy'] as string;

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('x-pathname', request.nextUrl.pathname);
  requestHeaders.set('Content-Security-Policy', csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: [
    {
      // Pages only: the public API (/api/v1/*, legacy /api/*) and static assets are left alone.
      source: '/((?!api(?:/|$)|_next/static|_next/image|favicon.ico).*)',
      missing: [
        { type: 'header', key: 'next-router-prefetch' },
        { type: 'header', key: 'purpose', value: 'prefetch' },
      ],
    },
    '/api/trpc/:path*',
    '/api/auth/:path*',
  ],
};
