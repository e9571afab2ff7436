/**
 * FLAC and AAC through Mediabunny's encoder extensions: libFLAC and FFmpeg's AAC encoder as WASM,
 * each encoder in a worker thread of its own, so encoding never blocks this thread. The price:
 * a push returns what the worker has finished, usually the audio of the pushes before it; the
 * rest follows with the next push or finish() (docs/formats.md).
 */
import { registerAacEncoder } from '@mediabunny/aac-encoder';
import { registerFlacEncoder } from '@mediabunny/flac-encoder';
import { AdtsOutputFormat, AudioSample, AudioSampleSource, FlacOutputFormat, Mp4OutputFormat, type OutputFormat } from 'mediabunny';
import { collectedOutput } from './mediabunny-output';
import type { EncoderSink } from './sink';

export type WorkerCodecFormat = 'flac' | 'm4a' | 'aac';

/** As Ogg pages (ogg-opus-sink.ts): a streamed sentence is not held back by the container. */
const FRAGMENT_SECONDS = 0.5;

const MUXERS: Record<WorkerCodecFormat, () => OutputFormat> = {
  flac: () => new FlacOutputFormat({ appendOnly: true }), // STREAMINFO without the total length
  // moov first, then a moof+mdat pair per fragment
  m4a: () => new Mp4OutputFormat({ fastStart: 'fragmented', minimumFragmentDuration: FRAGMENT_SECONDS }),
  aac: () => new AdtsOutputFormat(),
};

let registered = false;

export async function workerCodecSink(format: WorkerCodecFormat, sampleRate: number, bitrate: number | undefined): Promise<EncoderSink> {
  if (!registered) {
    registerFlacEncoder();
    registerAacEncoder();
    registered = true;
  }
  const { output, take, cancel } = collectedOutput(MUXERS[format]());
  const codec = format === 'flac' ? 'flac' : 'aac';
  const source = new AudioSampleSource(bitrate === undefined ? { codec } : { codec, bitrate });
  output.addAudioTrack(source);
  await output.start();
  let samplesIn = 0;
  return {
    async push(samples) {
      if (samples.length > 0) {
        const sample = new AudioSample({
          data: samples,
          format: 's16',
          numberOfChannels: 1,
          sampleRate,
          timestamp: samplesIn / sampleRate,
        });
        try {
          await source.add(sample);
        } finally {
          sample.close();
        }
        samplesIn += samples.length;
      }
      return take();
    },
    async finish() {
      await output.finalize();
      return take();
    },
    close: cancel,
  };
}
