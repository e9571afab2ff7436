/**
 * The client of the gateway, derived from the contract's route table: for the studio, the command
 * line, worker hosts and tests. Browser-safe: it imports no Node module, only the contract.
 */
export * from './client';
export * from './errors';
export type { InlineAudio, SynthesisResult } from './audio';
export type { FollowOptions, JobEvent } from './events';
export { readEventStream } from './sse';
