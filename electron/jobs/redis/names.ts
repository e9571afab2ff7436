import type { QueueOptions } from 'bullmq';
import { ApiError, ERROR_STATUS, type ErrorCode } from '../../contract';
import { CHUNK_RETRY } from '../chunk-retry';

/**
 * What the gateway and its worker hosts agree on in Redis: key and queue names, the chunk task,
 * how a failure travels. One gateway per Redis database: every key starts with PREFIX.
 */
export const PREFIX = 'orator';

/** One BullMQ queue per voice, so that a host takes only chunks of voices it has (BullMQ queue names cannot hold ":"). */
export function chunkQueueName(voice: string): string {
  return `chunks.${encodeURIComponent(voice)}`;
}

/** A chunk's task id: adding a chunk whose task is still in Redis adds nothing (BullMQ ids cannot hold ":"). */
export function chunkTaskId(jobId: string, idx: number): string {
  return `${jobId}.${idx}`;
}

/** The voices whose queues hold chunks: worker hosts run BullMQ workers for these (of theirs) only. */
export const WANTED_VOICES_KEY = `${PREFIX}:voices:wanted`;
/** Worker hosts by their last heartbeat (a sorted set), and each host's advertisement. */
export const HOSTS_KEY = `${PREFIX}:hosts`;
export const hostKey = (hostId: string) => `${PREFIX}:host:${hostId}`;
/** Set by the gateway at start; its absence later means Redis lost its data, and the chunk tasks are added again. */
export const EPOCH_KEY = `${PREFIX}:gateway:epoch`;

/** One chunk to synthesize, as a BullMQ job's data: all a worker host needs, without asking the gateway. */
export interface ChunkTask {
  job: string;
  idx: number;
  text: string;
  engine: string;
  /** The global voice id ("espeak-ng:en-us"). */
  voice: string;
  rate: number;
  pitch: number;
  volume: number;
}

/** A chunk whose worker died (its lock ran out) this often fails its job: it may be what kills them. */
export const MAX_STALLED = 2;

/**
 * How chunk tasks are added: retried by any host as chunk-retry.ts says (BullMQ's exponential
 * backoff waits delay × 2^(n−1), as retryDelayMs), gone once done, kept when failed (the gateway reads why).
 */
export const TASK_OPTIONS = {
  attempts: CHUNK_RETRY.attempts,
  backoff: { type: 'exponential', delay: CHUNK_RETRY.firstDelayMs },
  removeOnComplete: true,
  removeOnFail: false,
} as const;

/** BullMQ's connection to a --queue URL; BullMQ makes the connections (blocking ones apart) itself. */
export function queueOptions(url: string): Pick<QueueOptions, 'connection' | 'prefix'> {
  return { connection: { url, maxRetriesPerRequest: null }, prefix: PREFIX };
}

/** A failure as BullMQ stores it (one string): "<code>: <message>", readable in any Redis tool. */
export function failureReason(error: unknown): string {
  if (error instanceof ApiError) return `${error.code}: ${error.message}`;
  return `engine_error: The engine failed: ${(error as Error).message ?? String(error)}`;
}

/** A stored failure back as the job's error; reasons BullMQ wrote itself (a chunk stalled too often) are engine errors. */
export function failureOf(reason: string | undefined): ApiError {
  const match = /^([a-z_]+): ([\s\S]*)$/.exec(reason ?? '');
  if (match && match[1]! in ERROR_STATUS) return new ApiError(match[1] as ErrorCode, match[2]!);
  return new ApiError('engine_error', `The chunk failed on the worker hosts: ${reason ?? 'no reason given'}`);
}
