/**
 * Reads a request's or response's whole body, refusing it with `tooLarge()` past `maxBytes`: first
 * by its Content-Length, then by what actually arrives, since a sender may declare less than it sends.
 */
export async function readCappedBody(
  message: { headers: { get(name: string): string | null }; body: ReadableStream<Uint8Array> | null },
  maxBytes: number,
  tooLarge: () => Error,
) {
  const declared = Number(message.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw tooLarge();
  const chunks: Uint8Array[] = [];
  if (!message.body) return Buffer.alloc(0);
  const reader = message.body.getReader();
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
