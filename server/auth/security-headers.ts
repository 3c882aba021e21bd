/** Security headers for every page, /api/trpc and /api/auth (set by proxy.ts). Pure: no Next imports. */

export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

export interface CspOptions {
  /** React needs eval in development only, for its error overlays. */
  development: boolean;
  /** Served over HTTPS: upgrade subresources and pin HTTPS (never on plain-HTTP loopback runs). */
  secureTransport: boolean;
}

/**
 * Scripts run only with this request's nonce, and whatever those load ('strict-dynamic').
 * Styles allow inline because React style props and chart libraries write style attributes.
 * Images may come from any HTTPS host: asset logos are third-party URLs from the catalog.
 */
export function contentSecurityPolicy(nonce: string, { development, secureTransport }: CspOptions): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(secureTransport ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

export function securityHeaders(nonce: string, options: CspOptions): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(nonce, options),
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    ...(options.secureTransport ? { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}
