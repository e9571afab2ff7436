import type { InlineAudio } from '../api/client';
import type { Job } from '../api/contract';
import { voiceLabel } from './engines-slice';
import { jobTitle } from './jobs-slice';
import type { SliceCreator } from './types';

/** What the player dock holds. Playback time is not here: it changes too fast for a store. */
export type PlayerSource =
  | { kind: 'audio'; key: number; audio: InlineAudio; title: string }
  | { kind: 'job'; key: number; jobId: string; job: Job; title: string; startAt?: number };

export interface PlayerSlice {
  current: PlayerSource | null;
  /** Start playing as soon as the source is loaded (true after a user asked for it). */
  autoplay: boolean;
  playAudio(audio: InlineAudio, meta: { title: string }): void;
  /** `startAt`: seconds to start from (a job re-rendered goes on where it was heard), else its start. */
  playJob(job: Job, startAt?: number): void;
  closePlayer(): void;
}

let nextKey = 1;

export const createPlayerSlice: SliceCreator<PlayerSlice> = (set, get) => ({
  current: null,
  autoplay: true,
  playAudio: (audio, { title }) => set({ current: { kind: 'audio', key: nextKey++, audio, title }, autoplay: true }),
  playJob: (job, startAt) =>
    set({
      current: {
        kind: 'job',
        key: nextKey++,
        jobId: job.job_id,
        job,
        title: `${jobTitle(job)} — ${voiceLabel(get(), job.voice)}`,
        ...(startAt ? { startAt } : {}),
      },
      autoplay: true,
    }),
  closePlayer: () => set({ current: null }),
});
