import type { Job } from '../api/contract';
import type { SliceCreator } from './types';

/** How long a deleted job can be brought back: its DELETE is sent when this runs out. */
export const UNDO_DELETE_MS = 10_000;

/**
 * Delete with undo: the job leaves the list at once and its DELETE waits UNDO_DELETE_MS, so Undo
 * only shows it again. The gateway keeps nothing to restore: closing the studio inside the
 * window keeps the job (the safe way round); a second delete sends the first one's at once.
 */
export interface UndoDeleteSlice {
  /** The job deleted last, still restorable; hidden from the list. */
  deletionPending: Job | null;
  /** Hides the job and deletes it when the undo window ends; resolves when it is sent or undone. */
  deleteWithUndo(job: Job): Promise<void>;
  /** Shows the pending job again; returns its id, or null when there was none. */
  undoDelete(): string | null;
  /** Sends the pending deletion now. */
  commitDeletion(): Promise<void>;
}

export const createUndoDeleteSlice: SliceCreator<UndoDeleteSlice> = (set, get) => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    deletionPending: null,

    async deleteWithUndo(job) {
      await get().commitDeletion();
      set({ deletionPending: job });
      timer = setTimeout(() => void get().commitDeletion(), UNDO_DELETE_MS);
    },

    undoDelete() {
      clearTimeout(timer);
      const job = get().deletionPending;
      set({ deletionPending: null });
      return job?.job_id ?? null;
    },

    async commitDeletion() {
      clearTimeout(timer);
      const job = get().deletionPending;
      if (!job) return;
      // still hidden while the request runs; a refusal shows it again with the error on its row
      await get().deleteJob(job.job_id);
      if (get().deletionPending?.job_id === job.job_id) set({ deletionPending: null });
    },
  };
};
