/**
 * The export threads' AAC encoder (in the calling thread) against Mediabunny's (in a worker of its
 * own): the same frames, byte for byte, for speech pushed in pieces that are no whole frames.
 */
import { describe, expect, it } from 'vitest';
import { speech } from '../../testing/speech';
import { aacSink } from './aac-sink';
import type { EncoderSink } from './sink';
import { workerCodecSink } from './worker-codec-sink';

async function encodeAll(sink: EncoderSink, samples: Int16Array): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for (let at = 0; at < samples.length; at += 10_000) parts.push(await sink.push(samples.subarray(at, at + 10_000)));
  parts.push(await sink.finish());
  await sink.close();
  return Buffer.concat(parts);
}

describe('aacSink', () => {
  it('writes the frames Mediabunny writes', async () => {
    const said = await speech('The keeper counted the ships that passed in the night.');
    const [here, there] = [await aacSink(said.sampleRate, 64_000), await workerCodecSink('aac', said.sampleRate, 64_000)];
    const [ours, theirs] = [await encodeAll(here, said.samples), await encodeAll(there, said.samples)];
    // 1,024 samples a frame, the priming frame, and the last frame padded
    expect(ours.length).toBeGreaterThan(1000);
    expect(ours.equals(theirs)).toBe(true);
  });
});
