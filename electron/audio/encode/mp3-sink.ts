/**
 * MP3 with LAME (wasm-media-encoders), in this thread so each push returns its own frames at once:
 * MP3 is what streaming clients ask for most (OpenAI's default). Constant bitrate, no Xing/LAME
 * tag (it would need patching at the start), so players count ~50 ms of encoder delay and padding.
 */
import { createMp3Encoder, type WasmMediaEncoder } from 'wasm-media-encoders';
import type { EncoderSink } from './sink';

type Mp3Kbps = 8 | 16 | 24 | 32 | 40 | 48 | 64 | 80 | 96 | 112 | 128 | 160 | 192 | 224 | 256 | 320;
type Lame = WasmMediaEncoder<'audio/mpeg'>;

/**
 * LAME instances done with, configured afresh for the next stream: making one compiles its
 * WebAssembly (a quarter of a second on a busy machine), which a ZIP of 500 chapters did 500 times.
 */
const idle: Lame[] = [];
/** Enough for an export's next chapter and a streaming answer; each holds a few MB of WASM memory. */
const IDLE_MAX = 2;

export async function mp3Sink(sampleRate: number, kbps: number): Promise<EncoderSink> {
  const lame = idle.pop() ?? (await createMp3Encoder());
  lame.configure({ channels: 1, sampleRate, bitrate: kbps as Mp3Kbps });
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    if (idle.length < IDLE_MAX) idle.push(lame);
  };
  return {
    async push(samples) {
      const floats = new Float32Array(samples.length);
      for (let i = 0; i < samples.length; i++) floats[i] = samples[i]! / 32768;
      return lame.encode([floats]).slice(); // a copy: the encoder reuses its output buffer
    },
    async finish() {
      const tail = lame.finalize().slice();
      release();
      return tail;
    },
    // WASM memory only: kept for the next stream (configure resets it), or left to the garbage collector
    async close() {
      release();
    },
  };
}
