/** Messages between the gateway and its spawn host (see client.ts). */
import type { ToolOptions } from '../cli';

/** Runs a program; `options` as runToolRaw takes them, less the signal (a Kill replaces it). */
export interface Run {
  kind: 'run';
  id: number;
  executable: string;
  args: string[];
  options: Omit<ToolOptions, 'signal'>;
}

/** Stops a run (its caller aborted): its process group is killed. */
export interface Kill {
  kind: 'kill';
  id: number;
}

export type HostRequest = Run | Kill;

/** A run's end: its output, or its failure as a message and, for an ApiError, its code. */
export type HostReply =
  { id: number; stdout: Uint8Array; stderr: string } | { id: number; error: { message: string; code?: string | undefined } };
