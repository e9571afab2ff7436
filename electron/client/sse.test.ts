import { describe, expect, it } from 'vitest';
import { readEventStream, SseParser, type SseMessage } from './sse';

function parse(chunks: string[]): SseMessage[] {
  const out: SseMessage[] = [];
  const parser = new SseParser((m) => out.push(m));
  for (const c of chunks) parser.push(c);
  parser.end();
  return out;
}

describe('SseParser', () => {
  it('reads named events with their data', () => {
    expect(parse(['event: progress\ndata: {"a":1}\n\nevent: done\ndata: {"a":2}\n\n'])).toEqual([
      { event: 'progress', data: '{"a":1}' },
      { event: 'done', data: '{"a":2}' },
    ]);
  });

  it('joins messages split anywhere across chunks, CRLF included', () => {
    const text = 'event: progress\r\ndata: {"n":12}\r\n\r\nevent: failed\r\ndata: x\r\n\r\n';
    for (let cut = 1; cut < text.length; cut++) {
      expect(parse([text.slice(0, cut), text.slice(cut)])).toEqual([
        { event: 'progress', data: '{"n":12}' },
        { event: 'failed', data: 'x' },
      ]);
    }
  });

  it('skips comments and retry lines, joins multi-line data, defaults the name', () => {
    expect(parse(['retry: 2000\n\n: keep-alive\n\ndata: one\ndata: two\nid: 7\n\n'])).toEqual([
      { event: 'message', data: 'one\ntwo', id: '7' },
    ]);
  });

  it('dispatches a last message without a trailing blank line at the end of the stream', () => {
    expect(parse(['event: done\ndata: 1'])).toEqual([{ event: 'done', data: '1' }]);
  });

  it('reads a byte stream with multi-byte characters split between chunks', async () => {
    const bytes = new TextEncoder().encode('event: progress\ndata: "café ☕"\n\n');
    const split = bytes.indexOf(0xe2) + 1; // inside the three bytes of ☕
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, split));
        controller.enqueue(bytes.slice(split));
        controller.close();
      },
    });
    const out: SseMessage[] = [];
    await readEventStream(body, (m) => out.push(m));
    expect(out).toEqual([{ event: 'progress', data: '"café ☕"' }]);
  });
});
