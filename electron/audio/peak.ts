/**
 * The largest absolute sample of samples[start, end), or `floor` if larger: the inner loop of every
 * waveform and silence analysis, over every sample of hours of audio. Branch-free (the absolute
 * value by sign mask): speech swings between signs at random, which defeats branch prediction.
 */
export function absolutePeak(samples: Int16Array, start: number, end: number, floor = 0): number {
  let peak = floor;
  for (let i = start; i < end; i++) {
    const sample = samples[i]!;
    const sign = sample >> 31;
    const magnitude = (sample ^ sign) - sign;
    peak = magnitude > peak ? magnitude : peak;
  }
  return peak;
}
