/** Test support: CPU time of a call, the guard for algorithmic complexity (not speed) in tests. */

/** Milliseconds of CPU (user and system) this process spent in `run`. */
export function cpuMs(run: () => unknown): number {
  const before = process.cpuUsage();
  run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** A 100,000-character line: the size at which a quadratic rule takes seconds and a linear one milliseconds. */
export const ADVERSARIAL_LENGTH = 100_000;

/** `unit` repeated to ADVERSARIAL_LENGTH characters, then `tail` (often what makes every attempt fail). */
export function adversarialLine(unit: string, tail = ''): string {
  return unit.repeat(Math.ceil(ADVERSARIAL_LENGTH / unit.length)).slice(0, ADVERSARIAL_LENGTH) + tail;
}

/**
 * What "well under a second" means in these guards: a linear rule reads such a line in a few
 * milliseconds, and each rule these guard took 0.5 to 7 s of CPU when it was quadratic.
 */
export const WELL_UNDER_A_SECOND_MS = 250;
