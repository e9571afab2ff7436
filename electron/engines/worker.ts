/**
 * Entry of the synthesis worker threads (built to dist/synth-worker.mjs): runs in-thread
 * (WASM) engines off the HTTP event loop. Each thread loads an engine once and reuses it.
 */
import { workerData } from 'node:worker_threads';
import type { Pcm } from '../audio/pcm';
import { lowerThisThreadsPriority } from './thread-priority';
import type { EmbeddedEngine, WorkerOptions, WorkerTask } from './worker-protocol';
import { MODEL_HOST_FLAG } from './sherpa-onnx/protocol';

/** Each engine's module, imported by the first task that needs it: a thread holds only the engines it runs. */
const engines: Record<string, () => Promise<EmbeddedEngine>> = {
  'espeak-ng': async () => (await import('./espeak-ng/wasm')).espeakWasm,
  flite: async () => (await import('./flite/wasi')).fliteWasm,
  'svox-pico': async () => (await import('./svox-pico/wasm')).picoWasm,
  gnuspeech: async () => (await import('./gnuspeech/wasm')).gnuspeechWasm,
};

if ((workerData as WorkerOptions | undefined)?.background) lowerThisThreadsPriority();

export default async function run(task: WorkerTask) {
  const load = engines[task.engine];
  if (!load) throw new Error(`No in-thread engine "${task.engine}"`);
  const engine = await load();
  if (task.kind === 'voices') return engine.voices();
  if (task.kind === 'synthesize') return withOwnBuffer(await engine.synthesize(task.request));
  const pcms: Pcm[] = [];
  for (const request of task.requests) pcms.push(withOwnBuffer(await engine.synthesize(request)));
  return pcms;
}

/**
 * The samples go back to the main thread copied, not transferred. A transfer detaches the buffer,
 * and the first detach in a thread makes V8 check for detached buffers at every typed-array access
 * of its optimized code from then on: the WASM engines' code is little else (eSpeak NG's wasm2js
 * took 19 % more CPU per chunk; docs/performance.md). A copy of half a megabyte costs far less. A
 * view into a larger buffer (an engine's memory) is sliced first: a message would copy all of it.
 */
function withOwnBuffer(pcm: Pcm): Pcm {
  const owns = pcm.samples.byteOffset === 0 && pcm.samples.byteLength === pcm.samples.buffer.byteLength;
  return owns ? pcm : { sampleRate: pcm.sampleRate, samples: pcm.samples.slice() };
}

// The same bundle serves neural models when forked as the model process (sherpa-onnx/client.ts):
// one built file instead of two.
const modelHostFlag = process.argv.indexOf(MODEL_HOST_FLAG);
if (modelHostFlag >= 0 && process.send) {
  void import('./sherpa-onnx/host').then(({ serveModels }) => serveModels(process.argv[modelHostFlag + 1]!));
}
