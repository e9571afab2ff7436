import path from 'node:path';
import type { Lane } from '../lanes';
import type { ModelSpec } from './models';

/**
 * Messages to the model process (host.ts). It queues them and runs one at a time, interactive ones
 * before batch ones, so the parent can send requests ahead (client.ts); `cancel` takes request `id`
 * out of the queue if it has not begun.
 */
export type HostRequest =
  | { id: number; lane: Lane; type: 'load'; spec: ModelSpec }
  | { id: number; lane: Lane; type: 'synthesize'; spec: ModelSpec; text: string; speaker: number; speed: number }
  | { id: number; type: 'cancel' };

/**
 * `samples`: how many 16-bit samples a synthesis wrote to its samples file (samplesFile), which the
 * parent reads and deletes. A file, not the IPC channel: a chunk's 600 KB of samples went through
 * the channel in 64 KB pipe writes, each waiting for the other process to be scheduled, and were
 * serialized and copied on both sides, which cost 2-3 times the test model's synthesis
 * (docs/performance.md, neural voices).
 */
export type HostReply =
  { id: number; ok: true; sampleRate: number; numSpeakers: number; samples?: number } | { id: number; ok: false; message: string };

/** Sent as the model process begins request `id` (its time limit runs from then), then its reply. */
export type HostMessage = { id: number; started: true } | HostReply;

/** Where the model process writes the samples of request `id`, in the folder its parent gave it. */
export const samplesFile = (dir: string, id: number) => path.join(dir, `${id}.pcm`);

/** The argument that makes the worker bundle (worker.ts) serve models instead. */
export const MODEL_HOST_FLAG = '--orator-model-host';
