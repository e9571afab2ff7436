import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adversarialLine, cpuMs, WELL_UNDER_A_SECOND_MS } from '../testing/cpu';
import { CHECKSUM_LIST_MAX_BYTES, fetchChecksumList, parseChecksumList } from './checksums';

// A release's checksum list as sherpa-onnx publishes it, and the hostile answers a server (or
// whatever sits between) can give instead: each refused, within the byte bound, in linear time.
const HASH = 'ab'.repeat(32);
const list = (text: string) => parseChecksumList(Buffer.from(text));

describe('parseChecksumList', () => {
  it('reads `<name>\\t<sha256>` lines (CRLF, spaces, a blank last line too)', () => {
    const entries = list(`kokoro-en-v0_19.tar.bz2\t${HASH}\r\nvocos-22khz-univ.onnx  ${'0'.repeat(64)}\n\n`);
    expect([...entries]).toEqual([
      ['kokoro-en-v0_19.tar.bz2', HASH],
      ['vocos-22khz-univ.onnx', '0'.repeat(64)],
    ]);
  });

  it('refuses the whole list at its first malformed line, binary bytes, an empty list and two hashes for a name', () => {
    expect(() => list(`a.tar.bz2\t${HASH}\n<html>Not Found</html>\n`)).toThrow('line 2 is not "<name> <sha256>"');
    expect(() => list(`a.tar.bz2\t${HASH.toUpperCase()}\n`)).toThrow('line 1 is not');
    expect(() => list(`a.tar.bz2\t${HASH}0\n`)).toThrow('line 1 is not');
    expect(() => list(`a\u0000b\t${HASH}\n`)).toThrow('line 1 is not');
    expect(() => parseChecksumList(Buffer.from([0x61, 0x09, 0xff, 0xfe, 0x0a]))).toThrow('it is not UTF-8 text');
    expect(() => list('\n\n')).toThrow('it lists no file');
    expect(() => list(`a\t${HASH}\na\t${'0'.repeat(64)}\n`)).toThrow('it gives a two different hashes');
  });

  it('reads adversarial lines in linear time', () => {
    for (const text of [
      adversarialLine('a'),
      adversarialLine('a ', 'x'),
      adversarialLine('a\t'),
      `${'a'.repeat(255)}${' '.repeat(140)}x`,
    ]) {
      expect(cpuMs(() => expect(() => list(text)).toThrow('line 1 is not'))).toBeLessThan(WELL_UNDER_A_SECOND_MS);
    }
    const big = Array.from({ length: 3000 }, (_, i) => `vits-piper-model-${i}.tar.bz2\t${HASH}`).join('\n');
    expect(cpuMs(() => expect(list(big).size).toBe(3000))).toBeLessThan(WELL_UNDER_A_SECOND_MS);
  });
});

describe('fetchChecksumList', () => {
  let server: Server;
  let url: string;
  /** Bytes the endless answer wrote before the client hung up. */
  let written = 0;
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/endless') {
        // no Content-Length: only counting the bytes as they arrive can stop it
        response.writeHead(200, { 'content-type': 'text/plain' });
        const line = Buffer.from(`model.tar.bz2\t${HASH}\n`.repeat(1000));
        const more = () => {
          while (!response.destroyed && response.write(line)) written += line.length;
        };
        response.on('drain', more);
        return more();
      }
      if (request.url === '/declared') return void response.writeHead(200, { 'content-length': 64 * 2 ** 20 }).end();
      response.writeHead(200).end(`model.tar.bz2\t${HASH}\n`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve()).closeAllConnections()));

  it('reads a list and says when', async () => {
    const read = await fetchChecksumList(`${url}/checksum.txt`);
    expect(read).toEqual({ url: `${url}/checksum.txt`, fetched_at: expect.any(String), sha256: new Map([['model.tar.bz2', HASH]]) });
  });

  it('refuses a list past 1 MiB, declared or streamed without end, and stops reading it', async () => {
    await expect(fetchChecksumList(`${url}/declared`)).rejects.toThrow(`it is larger than ${CHECKSUM_LIST_MAX_BYTES} bytes`);
    await expect(fetchChecksumList(`${url}/endless`)).rejects.toThrow(`it is larger than ${CHECKSUM_LIST_MAX_BYTES} bytes`);
    // the connection was dropped: the server stops within its socket buffers of the bound
    const after = written;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(written).toBe(after);
    expect(written).toBeLessThan(CHECKSUM_LIST_MAX_BYTES + 16 * 2 ** 20);
  });
});
