/**
 * A Mediabunny output whose bytes are collected as the muxer writes them, for formats whose muxer
 * can work append-only: every byte may leave at once and nothing is patched afterwards.
 */
import { Output, StreamTarget, type OutputFormat, type StreamTargetChunk } from 'mediabunny';
import { concatBytes } from './sink';

export interface CollectedOutput {
  output: Output;
  /** The bytes written since the last call. */
  take(): Uint8Array;
  /** Drops an output that will not be finished (its encoders' workers end). */
  cancel(): Promise<void>;
}

export function collectedOutput(format: OutputFormat): CollectedOutput {
  let ready: Uint8Array[] = [];
  let written = 0;
  const writable = new WritableStream<StreamTargetChunk>({
    write(chunk) {
      // A seek back would corrupt a stream already sent: refuse it loudly.
      if (chunk.position !== written)
        throw new Error(`The ${format.fileExtension} muxer wrote at ${chunk.position}, not at the end (${written})`);
      ready.push(chunk.data);
      written += chunk.data.length;
    },
  });
  const output = new Output({ format, target: new StreamTarget(writable) });
  return {
    output,
    take() {
      const bytes = concatBytes(ready);
      ready = [];
      return bytes;
    },
    async cancel() {
      if (output.state !== 'finalized' && output.state !== 'canceled') await output.cancel();
    },
  };
}
