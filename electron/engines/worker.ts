/**
 * Entry of the synthesis worker threads (built to dist/synth-worker.mjs): runs in-thread
 * (WASM) engines off the HTTP event loop. Each thread loads an engine once and reuses it.
 */
import type { InThreadEngine, WorkerTask } from './worker-protocol';
import { espeakWasm } from './espeak-ng/wasm';

const engines: Record<string, InThreadEngine> = {
  'espeak-ng': espeakWasm,
};

export default async function run(task: WorkerTask) {
  const engine = engines[task.engine];
  if (!engine) throw new Error(`No in-thread engine "${task.engine}"`);
  return task.kind === 'voices' ? engine.voices() : engine.synthesize(task.request);
}
