/**
 * The export threads' AAC encoder (in the calling thread) against Mediabunny's (in a worker of its
 * own): the same frames, byte for byte, for speech pushed in pieces that are no whole frames.
 */
import { describe, expect, it } from 'vitest';
import { espeakWasm } from '../../engines/espeak-ng/wasm';
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
    const speech = await espeakWasm.synthesize({
      text: 'The keeper counted the ships that passed in the night.',
      voice: 'en-us',
      rate: 1,
      pitch: 1,
      volume: 1,
    });
    const [here, there] = [await aacSink(speech.sampleRate, 64_000), await workerCodecSink('aac', speech.sampleRate, 64_000)];
    const [ours, theirs] = [await encodeAll(here, speech.samples), await encodeAll(there, speech.samples)];
    // 1,024 samples a frame, the priming frame, and the last frame padded
    expect(ours.length).toBeGreaterThan(1000);
    expect(ours.equals(theirs)).toBe(true);
  });
});
