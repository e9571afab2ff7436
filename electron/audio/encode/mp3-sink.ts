/**
 * MP3 with LAME (wasm-media-encoders), in this thread so each push returns its own frames at once:
 * MP3 is what streaming clients ask for most (OpenAI's default). Constant bitrate, no Xing/LAME
 * tag (it would need patching at the start), so players count ~50 ms of encoder delay and padding.
 */
import { createMp3Encoder } from 'wasm-media-encoders';
import type { EncoderSink } from './sink';

type Mp3Kbps = 8 | 16 | 24 | 32 | 40 | 48 | 64 | 80 | 96 | 112 | 128 | 160 | 192 | 224 | 256 | 320;

export async function mp3Sink(sampleRate: number, kbps: number): Promise<EncoderSink> {
  const lame = await createMp3Encoder();
  lame.configure({ channels: 1, sampleRate, bitrate: kbps as Mp3Kbps });
  return {
    async push(samples) {
      const floats = new Float32Array(samples.length);
      for (let i = 0; i < samples.length; i++) floats[i] = samples[i]! / 32768;
      return lame.encode([floats]).slice(); // a copy: the encoder reuses its output buffer
    },
    async finish() {
      return lame.finalize().slice();
    },
    async close() {}, // WASM memory only: the garbage collector takes it
  };
}
