import { describe, expect, it } from 'vitest';
import { ApiError } from '../contract';
import { gatewaySlots, SlotPool } from './slots';

const pool = (perKey: number, total: number) =>
  new SlotPool(
    { perKey, total },
    (limits, whose) => new ApiError('too_many_streams', `${whose} ${limits.perKey}/${limits.total}`, { retryAfterS: 1 }),
  );

describe('SlotPool', () => {
  it('bounds each key and all keys together; a release frees one slot, once', () => {
    const slots = pool(2, 3);
    const a1 = slots.take('a');
    slots.take('a');
    expect(() => slots.take('a')).toThrow('key 2/3');
    const b1 = slots.take('b');
    expect(() => slots.take('c')).toThrow('all 2/3');
    b1();
    b1(); // a second release gives nothing back twice
    slots.take('c');
    expect(() => slots.take('d')).toThrow('all 2/3');
    a1();
    expect(() => slots.take('a')).not.toThrow();
  });

  it("lets background work wait its turn, before the key's later requests", async () => {
    const slots = pool(1, 4);
    const first = slots.take('a');
    const granted: string[] = [];
    const waiting = slots.wait('a', new AbortController().signal).then((release) => (granted.push('export'), release));
    // while it waits, the key's requests do not pass it; other keys are not held up
    expect(() => slots.take('a')).toThrow('key');
    const other = slots.take('b');
    first();
    const release = await waiting;
    expect(granted).toEqual(['export']);
    expect(() => slots.take('a')).toThrow('key');
    release();
    other();
    expect(() => slots.take('a')).not.toThrow();
  });

  it('forgets a waiter whose work was stopped', async () => {
    const slots = pool(1, 1);
    const held = slots.take('a');
    const stop = new AbortController();
    const waiting = slots.wait('b', stop.signal);
    stop.abort(new Error('deleted'));
    await expect(waiting).rejects.toThrow('deleted');
    held();
    expect(() => slots.take('b')).not.toThrow();
  });

  it("refuses with each pool's code and Retry-After, naming whose limit it is", () => {
    const { eventStreams, encoders, exports, sentenceEdits } = gatewaySlots();
    const fill = (p: SlotPool) => {
      for (let i = 0; i < p.limits.perKey; i++) p.take('key');
      try {
        p.take('key');
      } catch (error) {
        return error as ApiError;
      }
      throw new Error('not refused');
    };
    expect(fill(eventStreams)).toMatchObject({ code: 'too_many_streams', status: 429, retryAfterS: 10 });
    expect(fill(encoders)).toMatchObject({
      code: 'too_many_streams',
      retryAfterS: 1,
      message: expect.stringMatching(/^This API key has 8 encoders/),
    });
    expect(fill(exports)).toMatchObject({ code: 'too_many_exports', status: 429, retryAfterS: 30 });
    expect(fill(sentenceEdits)).toMatchObject({ code: 'too_many_edits', status: 429, retryAfterS: 1 });
  });
});
