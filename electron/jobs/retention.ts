import type { JobRunner } from './runner';
import type { JobStore } from './store';

const SWEEP_EVERY_MS = 60_000;

/** Deletes the audio of jobs whose retention ran out; their rows stay, so the API can answer 410. */
export function startRetentionSweeper(store: JobStore, runner: JobRunner): () => void {
  const sweep = () => {
    for (const id of store.expiredWithAudio(new Date().toISOString())) {
      runner.files
        .removeOutputs(id)
        .then(() => {
          store.markAudioRemoved(id);
          runner.changed(id);
        })
        .catch((error: Error) => console.warn(`Orator could not remove the expired audio of job ${id}: ${error.message}`));
    }
  };
  sweep();
  const timer = setInterval(sweep, SWEEP_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
