/** What the API reads of a request's URL: a WHATWG `URL`, or Next's `NextURL` it parsed already. */
export type RequestUrl = Pick<URL, 'pathname' | 'search' | 'searchParams'>;

/**
 * What an endpoint reads of a request. A Fetch `Request` (Next) is one; the lean server builds a
 * thinner one straight from node:http's message, without Fetch headers or streams for a GET.
 */
export interface ApiRequest {
  readonly method: string;
  /** Absolute URL. */
  readonly url: string;
  /** `url` parsed already by the server (Next's `NextRequest.nextUrl`): read instead of parsing it again. */
  readonly nextUrl?: RequestUrl;
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
  /** Aborted when the client goes away; long-lived answers (event streams) end with it. */
  readonly signal: AbortSignal;
  /** The socket's peer address, when the server that read the socket hands it over itself. */
  readonly peerAddress?: string;
  /**
   * The whole body, refused with `tooLarge()` past `maxBytes`, where the server can read it without
   * a web stream (the lean server, from node:http's message); otherwise `body` is read.
   */
  readonly readBody?: (maxBytes: number, tooLarge: () => Error) => Promise<Buffer>;
}

/** The request's URL: the one the server parsed already, or parsed here (throws on a malformed one). */
export const requestUrl = (request: ApiRequest): RequestUrl => request.nextUrl ?? new URL(request.url);
