/**
 * Time left for a running job, from the throughput measured while the studio watched it: chunks
 * finished per second over the last few minutes. Chunks hold up to 500 characters of whole
 * sentences, so they are close enough in size for an estimate.
 */
export interface ProgressSample {
  /** Milliseconds (Date.now()). */
  at: number;
  done: number;
}

/** Samples older than this no longer count: the rate follows the machine's current load. */
export const WINDOW_MS = 3 * 60_000;
/** Fewer chunks than this measured give no estimate: one chunk's time says little. */
export const MIN_CHUNKS = 2;

/** Adds a sample when the count moved; keeps the window's samples plus one before it. */
export function addSample(samples: readonly ProgressSample[], sample: ProgressSample): ProgressSample[] {
  const last = samples[samples.length - 1];
  if (last && sample.done === last.done) return samples as ProgressSample[];
  // a count that went back (a resumed job reread) starts the measurement again
  const kept = last && sample.done < last.done ? [] : samples.filter((s, i) => i === samples.length - 1 || sample.at - s.at <= WINDOW_MS);
  return [...kept, sample];
}

/** Seconds until `total`, or null when too little has been measured. */
export function secondsLeft(samples: readonly ProgressSample[], total: number): number | null {
  const first = samples[0];
  const last = samples[samples.length - 1];
  if (!first || !last || last.done - first.done < MIN_CHUNKS || last.at <= first.at) return null;
  const perSecond = (last.done - first.done) / ((last.at - first.at) / 1000);
  return Math.max(0, (total - last.done) / perSecond);
}

/** "under a minute", "about 4 min", "about 1 h 20 min". */
export function formatTimeLeft(seconds: number): string {
  if (seconds < 60) return 'under a minute';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `about ${hours} h ${rest} min` : `about ${hours} h`;
}
