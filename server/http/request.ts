/**
 * What an endpoint reads of a request. A Fetch `Request` (Next) is one; the lean server builds a
 * thinner one straight from node:http's message, without Fetch headers or streams for a GET.
 */
export interface ApiRequest {
  readonly method: string;
  /** Absolute URL. */
  readonly url: string;
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
  /** The socket's peer address, when the server that read the socket hands it over itself. */
  readonly peerAddress?: string;
  /** Aborted when the client goes away (a Fetch `Request` has one; the lean server sets it from the socket). */
  readonly signal?: AbortSignal;
}
