export interface ServerSentEvent {
  id?: string;
  event?: string;
  data?: string;
  retry?: number;
  /** Comment lines (heartbeats) in the block. */
  comments: string[];
}

export interface EventStreamClient {
  response: Response;
  /** The next event block, or undefined once the server ended the stream. */
  next(): Promise<ServerSentEvent | undefined>;
  /** Every remaining status event until the server ends the stream. */
  rest(): Promise<ServerSentEvent[]>;
  /** Drops the connection, as a client losing its network would. */
  drop(): void;
}

function parseBlock(block: string): ServerSentEvent {
  const event: ServerSentEvent = { comments: [] };
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) {
      event.comments.push(line.slice(1).trim());
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') event.data = event.data === undefined ? value : `${event.data}\n${value}`;
    else if (field === 'id' || field === 'event') event[field] = value;
    else if (field === 'retry') event.retry = Number(value);
  }
  return event;
}

/** A minimal Server-Sent Events reader over fetch, so tests see the exact bytes a browser would. */
export async function openEventStream(url: string, headers: Record<string, string> = {}): Promise<EventStreamClient> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let done = !response.ok || !reader;

  async function next(): Promise<ServerSentEvent | undefined> {
    while (true) {
      const end = buffer.indexOf('\n\n');
      if (end !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        return parseBlock(block);
      }
      if (done || !reader) return undefined;
      const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (chunk.done) {
        done = true;
        continue;
      }
      buffer += decoder.decode(chunk.value, { stream: true });
    }
  }

  return {
    response,
    next,
    async rest() {
      const events: ServerSentEvent[] = [];
      for (let event = await next(); event; event = await next()) if (event.event === 'status') events.push(event);
      return events;
    },
    drop() {
      done = true;
      abort.abort();
    },
  };
}

/** The next status event, skipping the reconnect hint and heartbeats. */
export async function nextStatus(stream: EventStreamClient): Promise<ServerSentEvent | undefined> {
  for (let event = await stream.next(); event; event = await stream.next()) if (event.event === 'status') return event;
  return undefined;
}
