/** Weight of the newest measure in the running mean: about the last twenty units count. */
const WEIGHT = 0.05;

/**
 * How fast each engine has been synthesizing renders' sentences, per engine thread: seconds of
 * work per character, a running mean over the units synthesized since the gateway started. What a
 * render plan says it will take comes from it (services/render-plan.ts).
 */
export class EnginePace {
  private readonly secondsPerChar = new Map<string, number>();

  record(engine: string, characters: number, seconds: number): void {
    if (characters <= 0) return;
    const measured = seconds / characters;
    const mean = this.secondsPerChar.get(engine);
    this.secondsPerChar.set(engine, mean === undefined ? measured : mean + WEIGHT * (measured - mean));
  }

  /** Seconds per character of one engine thread; null before the engine synthesized anything. */
  of(engine: string): number | null {
    return this.secondsPerChar.get(engine) ?? null;
  }
}
