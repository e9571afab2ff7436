/**
 * Several texts synthesized in one call, joined by long breaks: the audio of each text back. An
 * engine writes a break as exact zeros, and no pause in speech is nearly as long, so the joins are
 * the runs of zeros of at least `minBreak` samples; each text keeps the silence the engine puts
 * before and after a text of its own (the lead before the first sound, the silence after the last).
 */
import type { SampleRange } from './pauses';

/** [start, end) of each of `count` texts, or null unless exactly `count - 1` breaks were found. */
export function splitAtBreaks(samples: Int16Array, count: number, minBreak: number): SampleRange[] | null {
  const breaks = zeroRuns(samples, Math.max(1, minBreak));
  if (breaks.length !== count - 1) return null;
  const lead = breaks.length ? firstSound(samples) : 0;
  const tail = samples.length - 1 - lastSound(samples);
  const ranges: SampleRange[] = [];
  let start = 0;
  for (const [from, to] of breaks) {
    const kept = Math.min(tail, to - from - Math.min(lead, to - from));
    ranges.push([start, from + kept]);
    start = to - Math.min(lead, to - from - kept);
  }
  ranges.push([start, samples.length]);
  return ranges;
}

/**
 * Runs of at least `minRun` zeros between sounds. Only every `minRun / 2`-th sample is looked at
 * first, since such a run holds at least one of those; each zero found is widened to its run.
 */
function zeroRuns(samples: Int16Array, minRun: number): SampleRange[] {
  const runs: SampleRange[] = [];
  const step = Math.max(1, Math.floor(minRun / 2));
  for (let probe = 0; probe < samples.length; probe += step) {
    if (samples[probe] !== 0) continue;
    let start = probe;
    while (start > 0 && samples[start - 1] === 0) start--;
    let end = probe + 1;
    while (end < samples.length && samples[end] === 0) end++;
    if (end - start >= minRun && start > 0 && end < samples.length) runs.push([start, end]);
    probe = end; // the next probe is past this run
  }
  return runs;
}

function firstSound(samples: Int16Array): number {
  const at = samples.findIndex((s) => s !== 0);
  return at < 0 ? 0 : at;
}

function lastSound(samples: Int16Array): number {
  return samples.findLastIndex((s) => s !== 0);
}
