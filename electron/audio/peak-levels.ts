import { absolutePeak, windowPeaks } from './peak';

/** Waveform peaks computed while audio streams past, so players never decode hours of audio: the finest level's rate. */
export const PEAKS_PER_SECOND = 50;
/** Each level's window is this many of the level below's. */
export const LEVEL_FACTOR = 4;
/** Level 11 has a peak per 4^11 / 50 s, about 23 hours: no player needs a coarser one. */
export const MAX_LEVELS = 12;

/** A level's peaks, as integers 0–32768 (the largest absolute sample of each window). */
class Level {
  peaks = new Uint16Array(1024);
  count = 0;
  /** The window being filled: its largest level so far and how many peaks of the level below it holds. */
  current = 0;
  filled = 0;

  add(peak: number): void {
    if (this.count === this.peaks.length) {
      const grown = new Uint16Array(this.peaks.length * 2);
      grown.set(this.peaks);
      this.peaks = grown;
    }
    this.peaks[this.count++] = peak;
  }
}

/**
 * Waveform peaks at several resolutions, computed in one pass while audio streams past: level 0 has
 * PEAKS_PER_SECOND windows a second, level k windows LEVEL_FACTOR^k times longer, each the
 * largest absolute sample of its window. Level 0 is handed out as it is made (takeBase, to be
 * written to disk), so memory holds only the coarser levels: a third of level 0, 2 bytes a peak.
 */
export class PeakLevels {
  readonly window: number;
  private fresh = new Level();
  private readonly levels: Level[] = Array.from({ length: MAX_LEVELS - 1 }, () => new Level());
  private current = 0;
  private filled = 0;

  constructor(readonly sampleRate: number) {
    this.window = Math.max(1, Math.round(sampleRate / PEAKS_PER_SECOND));
  }

  push(samples: Int16Array): void {
    // the window the last push began, then the whole windows at once, and the start of the next
    const head = Math.min(samples.length, this.window - this.filled);
    this.current = absolutePeak(samples, 0, head, this.current);
    this.filled += head;
    if (this.filled < this.window) return;
    this.flushBase();
    const peaks = windowPeaks(samples, head, this.window);
    const tail = (samples.length - head) % this.window;
    const whole = tail > 0 ? peaks.length - 1 : peaks.length;
    for (let k = 0; k < whole; k++) {
      this.current = peaks[k]!;
      this.flushBase();
    }
    if (tail > 0) {
      this.current = peaks[whole]!;
      this.filled = tail;
    }
  }

  /** Level-0 peaks made since the last call. */
  takeBase(): Uint16Array {
    const taken = this.fresh.peaks.slice(0, this.fresh.count);
    this.fresh = new Level();
    return taken;
  }

  /**
   * Ends the audio: the last, partial windows of every level count. Returns the remaining level-0
   * peaks and the coarser levels, from level 1 up to the first of a single peak.
   */
  finish(): { base: Uint16Array; coarse: Uint16Array[] } {
    if (this.filled > 0) this.flushBase();
    for (let k = 0; k < this.levels.length; k++) {
      const level = this.levels[k]!;
      if (level.filled > 0) this.close(k);
    }
    const coarse: Uint16Array[] = [];
    for (const level of this.levels) {
      if (level.count === 0) break;
      coarse.push(level.peaks.slice(0, level.count));
      if (level.count === 1) break;
    }
    return { base: this.takeBase(), coarse };
  }

  private flushBase(): void {
    this.fresh.add(this.current);
    this.feed(0, this.current);
    this.current = 0;
    this.filled = 0;
  }

  /** A peak of the level below `k + 1` goes into the window of level k + 1 (levels[k]). */
  private feed(k: number, peak: number): void {
    const level = this.levels[k];
    if (!level) return;
    if (peak > level.current) level.current = peak;
    if (++level.filled === LEVEL_FACTOR) this.close(k);
  }

  private close(k: number): void {
    const level = this.levels[k]!;
    const peak = level.current;
    level.add(peak);
    level.current = 0;
    level.filled = 0;
    this.feed(k + 1, peak);
  }
}

/** A peak as the JSON answer has it: 0 to 1, three decimals. */
export const normalisedPeak = (peak: number) => Math.round((peak / 32768) * 1000) / 1000;
