/**
 * A minimal Server-Sent Events reader over fetch. EventSource cannot send an Authorization
 * header, so the stream is read from the response body instead.
 */
export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/** Splits an SSE byte stream into messages; call push() per chunk, then end(). */
export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];
  private id: string | undefined;

  constructor(private readonly onMessage: (message: SseMessage) => void) {}

  push(chunk: string): void {
    this.buffer += chunk;
    // A chunk may end between the \r and \n of one CRLF: hold the \r until the next chunk.
    const held = this.buffer.endsWith('\r') ? '\r' : '';
    const lines = (held ? this.buffer.slice(0, -1) : this.buffer).split(/\r\n|\r|\n/);
    // The last piece may be an incomplete line; keep it for the next chunk.
    this.buffer = (lines.pop() ?? '') + held;
    for (const line of lines) this.line(line);
  }

  end(): void {
    const rest = this.buffer.replace(/\r$/, '');
    if (rest) this.line(rest);
    this.buffer = '';
    this.dispatch();
  }

  private line(line: string): void {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return; // a comment, used by servers as a keep-alive
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id') this.id = value;
  }

  private dispatch(): void {
    if (this.data.length > 0) {
      const message: SseMessage = { event: this.event || 'message', data: this.data.join('\n') };
      if (this.id !== undefined) message.id = this.id;
      this.onMessage(message);
    }
    this.event = '';
    this.data = [];
  }
}

/** Reads an SSE response body to its end (or until the signal aborts). */
export async function readEventStream(body: ReadableStream<Uint8Array>, onMessage: (message: SseMessage) => void): Promise<void> {
  const parser = new SseParser(onMessage);
  const reader = body.pipeThrough<string>(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(value);
    }
    parser.end();
  } finally {
    reader.releaseLock();
  }
}
