import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '../errors';
import { newRequestId } from '../ids';
import { errorBody, interfaceHeaders, interfaceOf, jsonApiResponse } from './respond';

const BAD_PATH_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bad address · Switchyard</title></head>
<body><main><h1>Bad address</h1><p>This address is not valid (a broken %-encoding). Check the link.</p></main></body></html>`;

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
  res.writeHead(400, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(BAD_PATH_PAGE);
  return true;
}
