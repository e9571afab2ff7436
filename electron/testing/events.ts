/** Test support: reads a Server-Sent Events stream with fetch, as the studio does. */
export interface ServerEvent {
  event: string;
  data: unknown;
  id?: string;
}

export async function* readEvents(response: Response): AsyncGenerator<ServerEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(bytes, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      const id = /^id: (.*)$/m.exec(block)?.[1];
      if (event && data) yield { event, data: JSON.parse(data), ...(id === undefined ? {} : { id }) };
    }
  }
}
