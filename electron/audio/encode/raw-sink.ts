/**
 * Uncompressed output: WAV and headerless PCM. A streamed WAV cannot know its length up front, so
 * its header says 0xFFFFFFFF ("to the end of the file", as parseWav and common players read it);
 * whoever writes a file can rewrite the 44-byte header with wavHeader() once the length is known.
 */
import { pcmBytes, wavHeader } from '../wav';
import type { EncoderSink } from './sink';

const UNKNOWN_LENGTH = 0xffffffff;

export function rawSink(sampleRate: number, withWavHeader: boolean): EncoderSink {
  let header: Uint8Array | undefined = withWavHeader ? wavHeader(sampleRate, UNKNOWN_LENGTH) : undefined;
  return {
    async push(samples) {
      const bytes = pcmBytes(samples);
      if (!header) return new Uint8Array(bytes); // a copy: the caller may reuse its samples
      const first = new Uint8Array(header.length + bytes.length);
      first.set(header);
      first.set(bytes, header.length);
      header = undefined;
      return first;
    },
    async finish() {
      const rest = header ?? new Uint8Array(0); // no audio at all: a header alone
      header = undefined;
      return rest;
    },
    async close() {},
  };
}
