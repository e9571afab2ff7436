/** Scales samples in place, clipping at full scale; for engines that cannot set volume themselves. */
export function applyGain(samples: Int16Array, gain: number): void {
  if (gain === 1) return;
  for (let i = 0; i < samples.length; i++) {
    samples[i] = Math.max(-32768, Math.min(32767, Math.round(samples[i]! * gain)));
  }
}
