import type { Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError } from '../errors';
import { newRequestId } from '../ids';
import { errorBody, interfaceHeaders, interfaceOf, jsonApiResponse } from './respond';

type ParserError = Error & { code?: string; rawPacket?: Buffer };

/** What node:http's parser refused, as a status and a message a client can act on. */
function refusalOf(error: ParserError): [status: number, message: string] {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'The request line and headers are larger than 16 KB'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'The request was not received in time'];
    default:
      return [400, 'The request is not valid HTTP/1.1'];
  }
}

/**
 * node:http refuses some requests in its parser, before any handler runs: an oversized head, a
 * malformed request line or header. Left alone it answers a bare status line; this answers in the
 * error envelope of the interface the request line names, so every answer a client gets parses.
 */
export function answerParserRefusals(server: Server): void {
  server.on('clientError', (error: ParserError, socket: Duplex) => {
    const responding = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
    if (error.code === 'ECONNRESET' || !socket.writable || responding) {
      socket.destroy();
      return;
    }
    const [status, message] = refusalOf(error);
    const pathname = /^[A-Z]+ (\/[^\s?#]*)/.exec(error.rawPacket?.toString('latin1') ?? '')?.[1] ?? '';
    const api = interfaceOf(pathname);
    const requestId = newRequestId();
    const refusal = new AppError('VALIDATION_ERROR', message, { status });
    const response = jsonApiResponse(status, errorBody(api, refusal, requestId), interfaceHeaders(api, requestId));
    const body = Buffer.from(response.body ?? '');
    const head = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      ...Object.entries(response.headers).map(([name, value]) => `${name}: ${value}`),
      `content-length: ${body.byteLength}`,
      'connection: close',
    ].join('\r\n');
    socket.end(Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'latin1'), body]));
  });
}
