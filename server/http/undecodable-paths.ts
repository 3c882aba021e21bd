import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '../errors';
import { newRequestId } from '../ids';
import { errorBody, interfaceHeaders, interfaceOf, jsonApiResponse } from './respond';

/** The product's colours (app/globals.css), inline: this page is answered before Next and its stylesheets. */
const BAD_PATH_STYLE =
  'body{margin:0;background:#0b0f14;color:#e6edf3;font:16px/1.5 system-ui,sans-serif}' +
  'main{max-width:640px;margin:0 auto;padding:48px 16px}' +
  'section{background:#121821;border:1px solid #243040;border-radius:12px;padding:32px;text-align:center}' +
  'h1{font-size:18px;margin:0 0 8px}p{color:#8b98a9;margin:0}a{color:#4cc38a}';
const BAD_PATH_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Bad address · Switchyard</title>
<style>${BAD_PATH_STYLE}</style></head>
<body><main><section><h1>Bad address</h1><p>This address is not valid (a broken %-encoding). Check the link you
followed: a swap's page is the link given after executing it. Or start from the <a href="/">swap page</a>.</p>
</section></main></body></html>`;
/** Only this page's own style runs: no scripts, nothing loaded. */
const BAD_PATH_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(BAD_PATH_STYLE).digest('base64')}'`;

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * A path whose %-encoding does not decode (`/tx/%E0%A4%A`) makes Next's router throw and answer 500
 * (which pages someone): the web server answers 400 itself, in the API's envelope on its paths, a
 * short page elsewhere. True when it answered.
 */
export function refuseUndecodablePath(req: IncomingMessage, res: ServerResponse): boolean {
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (decodes(path)) return false;
  if (path.startsWith('/api/')) {
    const api = interfaceOf(path);
    const requestId = newRequestId();
    const refusal = new AppError('VALIDATION_ERROR', 'The request path is not valid %-encoded UTF-8');
    const answer = jsonApiResponse(400, errorBody(api, refusal, requestId), interfaceHeaders(api, requestId));
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
    return true;
  }
  res.writeHead(400, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': BAD_PATH_CSP,
  });
  res.end(BAD_PATH_PAGE);
  return true;
}
