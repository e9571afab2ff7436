/**
 * AAC in ADTS from FFmpeg's encoder (the WebAssembly build of @mediabunny/aac-encoder) run in the
 * calling thread, for callers already off the main thread (the export threads). Mediabunny's own
 * wrapper (worker-codec-sink.ts) runs it in a worker of its own and sends each 1,024-sample frame
 * there and back as a message, awaited one at a time: 8 % more CPU for the same frames (measured:
 * five minutes of speech, 10.9 s of CPU against 10.0 s) and a second thread per encode. The bytes
 * are the same: the same encoder and settings, samples scaled as Mediabunny scales them (1/32768),
 * the last frame padded with silence, the flush drained.
 */
import createAacModule from '@mediabunny/aac-encoder/wasm';
import { adtsHeader, aacConfig, AAC_SAMPLE_RATES } from '../adts';
import { concatBytes, type EncoderSink } from './sink';

const FRAME = 1024;

/** The functions of the module's bridge (the package's src/bridge.c) that are used here. */
interface AacModule {
  HEAPU8: Uint8Array;
  _init_encoder(channels: number, sampleRate: number, bitrate: number): number;
  _get_encoder_frame_size(ctx: number): number;
  _get_encode_input_ptr(ctx: number, bytes: number): number;
  _send_frame(ctx: number, pts: bigint): number;
  _receive_packet(ctx: number): number;
  _flush_encoder_start(ctx: number): void;
  _get_encoded_data(ctx: number): number;
  _close_encoder(ctx: number): void;
}

/** One module per thread: compiling it takes a tenth of a second, every encode of the thread shares it. */
let module: Promise<AacModule> | undefined;

export async function aacSink(sampleRate: number, bitrate: number): Promise<EncoderSink> {
  const rateIndex = AAC_SAMPLE_RATES.indexOf(sampleRate);
  if (rateIndex < 0) throw new RangeError(`AAC has no rate of ${sampleRate} Hz`);
  module ??= createAacModule() as Promise<AacModule>;
  const aac = await module;
  let ctx = aac._init_encoder(1, sampleRate, bitrate);
  if (ctx === 0) throw new Error('The AAC encoder did not start');
  if (aac._get_encoder_frame_size(ctx) !== FRAME) throw new Error('The AAC encoder asks for frames of another size');
  const config = aacConfig(rateIndex, 1);
  const input = aac._get_encode_input_ptr(ctx, FRAME * 4);
  const pending = new Float32Array(FRAME);
  let filled = 0;
  const drain = (frames: Uint8Array[]) => {
    for (let size; (size = aac._receive_packet(ctx)) > 0;) {
      const at = aac._get_encoded_data(ctx);
      const frame = new Uint8Array(7 + size);
      frame.set(adtsHeader(config, frame.length));
      frame.set(aac.HEAPU8.subarray(at, at + size), 7);
      frames.push(frame);
    }
  };
  let pts = 0n;
  const send = (frames: Uint8Array[]) => {
    // the module's memory may have grown since the last frame: its views are taken anew
    new Float32Array(aac.HEAPU8.buffer, input, FRAME).set(pending);
    if (aac._send_frame(ctx, pts) < 0) throw new Error('The AAC encoder failed');
    pts += BigInt(FRAME);
    filled = 0;
    drain(frames);
  };
  const release = () => {
    if (ctx !== 0) aac._close_encoder(ctx);
    ctx = 0;
  };
  return {
    async push(samples) {
      const frames: Uint8Array[] = [];
      for (let i = 0; i < samples.length; i++) {
        pending[filled++] = samples[i]! / 32768;
        if (filled === FRAME) send(frames);
      }
      return concatBytes(frames);
    },
    async finish() {
      const frames: Uint8Array[] = [];
      if (filled > 0) {
        pending.fill(0, filled);
        send(frames);
      }
      aac._flush_encoder_start(ctx);
      drain(frames);
      release();
      return concatBytes(frames);
    },
    async close() {
      release();
    },
  };
}
