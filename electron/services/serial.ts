/**
 * Work on one key (a project, a compare session) run one piece after another, in the order
 * asked: a render while the manuscript is replaced, two reads that would both adopt a take's audio.
 * Keys with nothing queued are forgotten.
 */
export class KeyedSerial {
  private readonly busy = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => T | Promise<T>): Promise<T> {
    const run = (this.busy.get(key) ?? Promise.resolve()).then(work, work);
    const settled = run.catch(() => undefined);
    this.busy.set(key, settled);
    void settled.then(() => this.busy.get(key) === settled && this.busy.delete(key));
    return run;
  }
}

/** A change's fields that are set: an absent field keeps what was. */
export function definedOnly<T extends object>(change: T): Partial<T> {
  return Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined)) as Partial<T>;
}
