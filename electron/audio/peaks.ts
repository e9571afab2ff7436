/** Waveform peaks computed while audio streams past, so players never decode hours of audio. */
export const PEAKS_PER_SECOND = 50;

export class PeakAccumulator {
  private readonly window: number;
  private readonly peaks: number[] = [];
  private current = 0;
  private filled = 0;

  constructor(sampleRate: number, peaksPerSecond = PEAKS_PER_SECOND) {
    this.window = Math.max(1, Math.round(sampleRate / peaksPerSecond));
  }

  push(samples: Int16Array): void {
    // window by window, not sample by sample: this runs over every sample of hours of audio
    let i = 0;
    while (i < samples.length) {
      const end = Math.min(samples.length, i + this.window - this.filled);
      let level = this.current;
      for (let j = i; j < end; j++) {
        const sample = samples[j]!;
        if (sample > level) level = sample;
        else if (-sample > level) level = -sample;
      }
      this.current = level;
      this.filled += end - i;
      i = end;
      if (this.filled === this.window) this.flush();
    }
  }

  /** Silence counts without being allocated. */
  pushSilence(count: number): void {
    let left = count;
    while (left > 0) {
      const take = Math.min(left, this.window - this.filled);
      this.filled += take;
      left -= take;
      if (this.filled === this.window) this.flush();
    }
  }

  finish(): number[] {
    if (this.filled > 0) this.flush();
    return this.peaks;
  }

  private flush() {
    this.peaks.push(Math.round((this.current / 32768) * 1000) / 1000);
    this.current = 0;
    this.filled = 0;
  }
}
