/**
 * Loudness-matched listening (QA compare): every take is brought to one integrated loudness, so
 * the louder take does not win for being louder. EBU R 128's −23 LUFS, unless a take could not
 * be raised that far without clipping: then the loudest level every take can reach.
 */
export const LOUDNESS_TARGET_LUFS = -23;
/** Sample peaks are kept this far below full scale. */
const HEADROOM_DB = 0.5;

export interface TakeLevel {
  /** Integrated loudness (BS.1770) as the gateway measured it; null for silence or when unknown. */
  lufs: number | null;
  /** Highest sample, 0 to 1. */
  peak: number;
}

const dbfs = (amplitude: number) => 20 * Math.log10(amplitude);

/** The common loudness of the takes that have one; null when none has. */
export function matchTarget(levels: readonly TakeLevel[]): number | null {
  const measured = levels.filter((level) => level.lufs !== null && level.peak > 0);
  if (measured.length === 0) return null;
  // the most a take can be raised is until its peak meets the headroom
  const reachable = measured.map((level) => level.lufs! - dbfs(level.peak) - HEADROOM_DB);
  return Math.min(LOUDNESS_TARGET_LUFS, ...reachable);
}

/** The gain (dB) that brings a take to `target`; 0 for a take without a loudness (silence stays silence). */
export function gainToTarget(level: TakeLevel, target: number | null): number {
  return target === null || level.lufs === null || level.peak === 0 ? 0 : target - level.lufs;
}

/** e.g. "−17.3 LUFS"; "silent" for a take with no loudness. */
export function formatLoudness(lufs: number | null): string {
  return lufs === null ? 'silent' : `${lufs < 0 ? '−' : ''}${Math.abs(lufs).toFixed(1)} LUFS`;
}
