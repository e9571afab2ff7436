/**
 * The model process: loads user-supplied ONNX models with sherpa-onnx-node and synthesizes.
 * It runs as a child process because a malformed model does not throw: onnxruntime aborts
 * the whole process (a garbage .onnx, a bad tokens.txt).
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { PRIVATE_FILE_MODE } from '../../storage/private-files';
import type { ModelSpec } from './models';
import { samplesFile, type HostMessage, type HostReply, type HostRequest } from './protocol';

type Tts = import('sherpa-onnx-node').OfflineTts;

/** sherpa-onnx's model config for one folder. */
export function ttsConfig(spec: ModelSpec, numThreads: number): object {
  const text = { tokens: spec.tokens, lexicon: spec.lexicon ?? '', dataDir: spec.dataDir ?? '' };
  const model =
    spec.kind === 'kokoro'
      ? { kokoro: { model: spec.model, voices: spec.voices, ...text } }
      : spec.kind === 'matcha'
        ? { matcha: { acousticModel: spec.model, vocoder: spec.vocoder, ...text } }
        : { vits: { model: spec.model, ...text } };
  return { model: { ...model, numThreads, debug: false, provider: 'cpu' }, maxNumSentences: 1 };
}

/** Clamped and rounded (half away from zero) without Math calls: 4-6 times faster, per chunk milliseconds. */
function toInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const v = samples[i]! * 32767;
    out[i] = v >= 32767 ? 32767 : v <= -32768 ? -32768 : v < 0 ? v - 0.5 : v + 0.5;
  }
  return out;
}

/** Threads each model process gives sherpa-onnx: the cores, at most 4 (docs/engines.md). */
export const modelThreads = () => Math.min(4, os.availableParallelism());

/** `dir`: the private folder, the parent's, that samples files go in (protocol.ts). */
export async function serveModels(dir: string): Promise<void> {
  const { OfflineTts } = (await import('sherpa-onnx-node')).default;
  const numThreads = modelThreads();
  const loaded = new Map<string, Tts>();
  const load = (spec: ModelSpec) => {
    let tts = loaded.get(spec.dir);
    if (!tts) {
      tts = new OfflineTts(ttsConfig(spec, numThreads));
      loaded.set(spec.dir, tts);
    }
    return tts;
  };
  const serve = (request: Exclude<HostRequest, { type: 'cancel' }>): HostReply => {
    try {
      const tts = load(request.spec);
      const base = { id: request.id, ok: true as const, sampleRate: tts.sampleRate, numSpeakers: tts.numSpeakers };
      if (request.type === 'load') return base;
      const audio = tts.generate({ text: request.text, sid: request.speaker, speed: request.speed });
      const samples = toInt16(audio.samples);
      writeFileSync(samplesFile(dir, request.id), samples, { mode: PRIVATE_FILE_MODE });
      return { ...base, sampleRate: audio.sampleRate, samples: samples.length };
    } catch (error) {
      return { id: request.id, ok: false, message: (error as Error).message };
    }
  };
  const queue = new RequestQueue((request) => {
    process.send!({ id: request.id, started: true } satisfies HostMessage);
    process.send!(serve(request) satisfies HostMessage);
  });
  // The parent's end: nothing else would stop this process.
  process.on('disconnect', () => process.exit(0));
  process.on('message', (request: HostRequest) => queue.receive(request));
}

type Runnable = Exclude<HostRequest, { type: 'cancel' }>;

/**
 * The requests the parent sent ahead, run one at a time: interactive before batch, in order within
 * a lane. The next is picked on the turn after a synthesis, once the messages that arrived during it
 * have been read, so that a cancel or an interactive request sent meanwhile counts.
 */
class RequestQueue {
  private readonly waiting: Runnable[] = [];
  private scheduled = false;

  constructor(private readonly run: (request: Runnable) => void) {}

  receive(request: HostRequest): void {
    if (request.type === 'cancel') {
      const at = this.waiting.findIndex((r) => r.id === request.id);
      if (at >= 0) this.waiting.splice(at, 1);
      return;
    }
    this.waiting.push(request);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.waiting.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const at = this.waiting.findIndex((r) => r.lane === 'interactive');
      const [request] = this.waiting.splice(at >= 0 ? at : 0, 1);
      if (request) this.run(request);
      this.schedule();
    });
  }
}
