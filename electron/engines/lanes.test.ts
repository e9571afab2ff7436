import { describe, expect, it } from 'vitest';
import { LaneLimiter, type Lane } from './lanes';

/** A task that finishes when told to, recording when it started. */
function gate(log: string[], name: string) {
  let open!: () => void;
  const done = new Promise<void>((resolve) => (open = resolve));
  return {
    task: async () => {
      log.push(name);
      await done;
      return name;
    },
    open,
  };
}

describe('LaneLimiter', () => {
  it('runs at most `concurrency` tasks and starts waiting interactive ones before batch ones', async () => {
    const limiter = new LaneLimiter(2);
    const log: string[] = [];
    const tasks: Record<string, ReturnType<typeof gate>> = {};
    const results: Promise<string>[] = [];
    const submit = (name: string, lane: Lane) => {
      tasks[name] = gate(log, name);
      results.push(limiter.run(lane, tasks[name]!.task));
    };
    submit('b1', 'batch');
    submit('b2', 'batch');
    submit('b3', 'batch');
    submit('b4', 'batch');
    submit('i1', 'interactive');
    submit('i2', 'interactive');
    await Promise.resolve();
    expect(log).toEqual(['b1', 'b2']);
    expect([limiter.active, limiter.queued]).toEqual([2, 4]);
    tasks.b1!.open();
    await new Promise((r) => setTimeout(r, 0));
    expect(log).toEqual(['b1', 'b2', 'i1']);
    for (const name of ['b2', 'i1', 'i2', 'b3', 'b4']) {
      tasks[name]!.open();
      await new Promise((r) => setTimeout(r, 0));
    }
    expect(log).toEqual(['b1', 'b2', 'i1', 'i2', 'b3', 'b4']);
    expect(await Promise.all(results)).toEqual(['b1', 'b2', 'b3', 'b4', 'i1', 'i2']);
    expect([limiter.active, limiter.queued]).toEqual([0, 0]);
  });

  it("takes an aborted task out of the queue with the signal's reason, and frees the slot of a failed one", async () => {
    const limiter = new LaneLimiter(1);
    const log: string[] = [];
    const first = gate(log, 'first');
    const running = limiter.run('batch', first.task);
    const abort = new AbortController();
    const waiting = limiter.run('interactive', async () => 'never', abort.signal);
    abort.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    expect(limiter.queued).toBe(0);
    first.open();
    await running;
    await expect(limiter.run('batch', () => Promise.reject(new Error('engine broke')))).rejects.toThrow('engine broke');
    await expect(
      limiter.run('batch', () => {
        throw new Error('thrown at once');
      }),
    ).rejects.toThrow('thrown at once');
    expect(await limiter.run('batch', async () => 'still works')).toBe('still works');
    await expect(limiter.run('batch', async () => 'x', AbortSignal.abort(new Error('too late')))).rejects.toThrow('too late');
  });

  it('keeps the slots above `batch` for interactive tasks, even with batch tasks waiting', async () => {
    const limiter = new LaneLimiter(3, { batch: 2 });
    const log: string[] = [];
    const tasks = Object.fromEntries(['b1', 'b2', 'b3', 'i1', 'i2'].map((name) => [name, gate(log, name)]));
    const results = ['b1', 'b2', 'b3'].map((name) => limiter.run('batch', tasks[name]!.task));
    await Promise.resolve();
    expect(log).toEqual(['b1', 'b2']);
    expect([limiter.active, limiter.queued]).toEqual([2, 1]);
    results.push(limiter.run('interactive', tasks.i1!.task));
    expect(log).toEqual(['b1', 'b2', 'i1']);
    results.push(limiter.run('interactive', tasks.i2!.task));
    tasks.i1!.open();
    await new Promise((r) => setTimeout(r, 0));
    // the freed interactive slot goes to the waiting interactive task, not to b3
    expect(log).toEqual(['b1', 'b2', 'i1', 'i2']);
    tasks.b1!.open();
    await new Promise((r) => setTimeout(r, 0));
    expect(log).toEqual(['b1', 'b2', 'i1', 'i2', 'b3']);
    for (const name of ['b2', 'b3', 'i2']) tasks[name]!.open();
    expect(await Promise.all(results)).toEqual(['b1', 'b2', 'b3', 'i1', 'i2']);
    expect(() => new LaneLimiter(2, { batch: 3 })).toThrow(RangeError);
  });
});
