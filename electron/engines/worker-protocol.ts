import type { Voice } from '../contract';
import type { SynthesisRequest } from './engine';
import type { Pcm } from '../audio/pcm';

/** Messages to the synthesis worker threads (see worker.ts). */
export type SynthesisTask =
  | { kind: 'synthesize'; engine: string; request: SynthesisRequest }
  /** Several requests, each its own call of the engine, in one task: one hop to the thread and one message back. */
  | { kind: 'synthesize-batch'; engine: string; requests: SynthesisRequest[] };
export type WorkerTask = { kind: 'voices'; engine: string } | SynthesisTask;

export type WorkerReply<T extends WorkerTask> = T extends { kind: 'voices' }
  ? Voice[]
  : T extends { kind: 'synthesize-batch' }
    ? Pcm[]
    : Pcm;

/** The workerData of a synthesis thread. */
export interface WorkerOptions {
  /** Batch work: the thread lowers its own priority (nice 10) when it starts. */
  background?: boolean;
}

/** An engine that runs inside a worker thread (WASM), loaded once per thread. */
export interface EmbeddedEngine {
  voices(): Promise<Voice[]>;
  synthesize(request: SynthesisRequest): Promise<Pcm>;
}
