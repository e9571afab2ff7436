/**
 * Streaming sample-rate conversion with the Speex resampler (SpeexDSP, BSD, as WASM): for codecs
 * that do not take a voice's rate (Opus, AAC and MP3 at odd rates) and OpenAI's 24 kHz `pcm`.
 * Quality 5: a Kaiser-windowed sinc with ~100 dB stopband attenuation and a passband to 94% of the
 * lower Nyquist frequency (10.4 of 11 kHz for a 22.05 kHz voice), far above what speech needs.
 */
import createSpeex from '@echogarden/speex-resampler-wasm';

const QUALITY = 5;

interface SpeexModule {
  HEAP16: Int16Array;
  HEAPU32: Uint32Array;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  _speex_resampler_init(channels: number, inRate: number, outRate: number, quality: number, errorPointer: number): number;
  _speex_resampler_skip_zeros(state: number): number;
  _speex_resampler_get_input_latency(state: number): number;
  _speex_resampler_process_int(state: number, channel: number, input: number, inLength: number, output: number, outLength: number): number;
  _speex_resampler_destroy(state: number): void;
}

let speex: Promise<SpeexModule> | undefined;

export class Resampler {
  private readonly lengths: number; // two uint32s: input length, output length (in and out)
  private buffer = 0;
  private capacity = 0; // samples, for input and output alike
  private samplesIn = 0;
  private samplesOut = 0;
  private closed = false;

  private constructor(
    private readonly module: SpeexModule,
    private readonly state: number,
    readonly inputRate: number,
    readonly outputRate: number,
  ) {
    this.lengths = module._malloc(8);
    // The filter's delay would shift the audio by its latency; skipping it keeps the output aligned.
    module._speex_resampler_skip_zeros(state);
  }

  static async create(inputRate: number, outputRate: number): Promise<Resampler> {
    speex ??= createSpeex() as Promise<SpeexModule>;
    const module = await speex;
    const error = module._malloc(4);
    const state = module._speex_resampler_init(1, inputRate, outputRate, QUALITY, error);
    module._free(error);
    if (!state) throw new Error(`The resampler cannot convert ${inputRate} Hz to ${outputRate} Hz`);
    return new Resampler(module, state, inputRate, outputRate);
  }

  push(samples: Int16Array): Int16Array {
    this.samplesIn += samples.length;
    return this.process(samples);
  }

  /** The audio still in the filter, cut so the whole output lasts exactly as long as the input. */
  finish(): Int16Array {
    const tail = this.process(new Int16Array(this.module._speex_resampler_get_input_latency(this.state)));
    const expected = Math.round((this.samplesIn * this.outputRate) / this.inputRate);
    const wanted = Math.max(0, expected - (this.samplesOut - tail.length));
    this.close();
    return tail.subarray(0, wanted);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.module._speex_resampler_destroy(this.state);
    this.module._free(this.lengths);
    if (this.buffer) this.module._free(this.buffer);
  }

  private process(samples: Int16Array): Int16Array {
    if (this.closed) throw new Error('The resampler is closed');
    const outCapacity = Math.ceil((samples.length * this.outputRate) / this.inputRate) + 16;
    this.reserve(Math.max(samples.length, outCapacity));
    const { module } = this;
    const input = this.buffer;
    const output = this.buffer + this.capacity * 2;
    // HEAP views are read after each call: WASM memory growth replaces them
    module.HEAP16.set(samples, input / 2);
    module.HEAPU32[this.lengths / 4] = samples.length;
    module.HEAPU32[this.lengths / 4 + 1] = outCapacity;
    const error = module._speex_resampler_process_int(this.state, 0, input, this.lengths, output, this.lengths + 4);
    if (error !== 0 || module.HEAPU32[this.lengths / 4] !== samples.length) {
      throw new Error(`The resampler failed (Speex error ${error})`);
    }
    const produced = module.HEAPU32[this.lengths / 4 + 1]!;
    this.samplesOut += produced;
    return module.HEAP16.slice(output / 2, output / 2 + produced);
  }

  /** One allocation holds the input and the output area, each `samples` long; it only grows. */
  private reserve(samples: number) {
    if (samples <= this.capacity) return;
    if (this.buffer) this.module._free(this.buffer);
    this.capacity = samples;
    this.buffer = this.module._malloc(samples * 4);
  }
}

/** A whole piece of audio at another rate (a segment of another voice joined to the rest). */
export async function resampleWhole(samples: Int16Array, inputRate: number, outputRate: number): Promise<Int16Array> {
  if (inputRate === outputRate) return samples;
  const resampler = await Resampler.create(inputRate, outputRate);
  try {
    const head = resampler.push(samples);
    const tail = resampler.finish();
    const out = new Int16Array(head.length + tail.length);
    out.set(head);
    out.set(tail, head.length);
    return out;
  } finally {
    resampler.close();
  }
}
