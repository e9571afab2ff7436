import { ApiError } from '../contract';
import { DiskFull } from './disk-budget';

/** Why a job failed: an API error code, or "cancelled" / "disk_full". */
export interface JobError {
  code: string;
  message: string;
}

/** What a failed job records, whatever went wrong. */
export function toJobError(error: unknown): JobError {
  if (error instanceof ApiError || error instanceof DiskFull) return { code: error.code, message: error.message };
  const err = error as NodeJS.ErrnoException;
  if (err.code === 'ENOSPC' || err.code === 'EDQUOT' || err.code === 'SQLITE_FULL')
    return { code: 'disk_full', message: 'The disk is full: free some space and retry the job.' };
  return { code: 'engine_error', message: `The engine failed: ${err.message ?? String(error)}` };
}

export function isDiskFull(error: JobError): boolean {
  return error.code === 'disk_full';
}
