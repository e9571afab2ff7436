/**
 * What a start has opened, to be closed again newest first: one list serves both a start that
 * fails half-way (the steps taken so far are undone) and close() (every step is), so that nothing
 * started can be left out of the stop. In the spirit of wavesurfer's `subscriptions` and
 * Fastify's onClose.
 */
export class Disposers {
  private readonly steps: { name: string; dispose: () => unknown }[] = [];

  /** Adds the undoing of what was just opened; it runs before everything added earlier. */
  add(name: string, dispose: () => unknown): void {
    this.steps.push({ name, dispose });
  }

  /**
   * Runs every step, newest first, once: a step that fails does not keep the older ones from
   * running (the data folder's lock is always released). Throws the failures afterwards.
   */
  async dispose(): Promise<void> {
    const failures: Error[] = [];
    for (let step = this.steps.pop(); step; step = this.steps.pop()) {
      try {
        await step.dispose();
      } catch (error) {
        failures.push(new Error(`Closing ${step.name} failed: ${(error as Error).message}`, { cause: error }));
      }
    }
    if (failures.length === 1) throw failures[0]!;
    if (failures.length > 1) throw new AggregateError(failures, failures.map((f) => f.message).join(' '));
  }
}
