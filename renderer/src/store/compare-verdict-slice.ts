import { API, type CompareTake, type CompareTakePatch, type PairChoice } from '../api/contract';
import { describeError } from '../lib/format';
import type { SliceCreator } from './types';

/** Notes are saved this long after the last keystroke. */
const NOTE_SAVE_MS = 400;

export interface CompareVerdictSlice {
  rateTake(takeId: string, rating: number | null): void;
  noteTake(takeId: string, note: string): void;
  rateSentence(takeId: string, sentence: number, rating: number | null): void;
  recordPair(choice: PairChoice): void;
  /** Saves what is waiting (a note being typed): before a reload or export. */
  flushCompareVerdicts(): Promise<void>;
}

/** The listener's verdicts: shown at once, saved on the gateway (notes once typing pauses). */
export const createCompareVerdictSlice: SliceCreator<CompareVerdictSlice> = (set, get) => {
  const pending = new Map<string, { timer: ReturnType<typeof setTimeout>; save: () => Promise<void> }>();
  const change = (takeId: string, patch: CompareTakePatch & Partial<CompareTake>, delayMs = 0) => {
    const session = get().compareSession;
    if (!session) return;
    const takes = session.takes.map((t) => (t.take_id === takeId ? { ...t, ...patch } : t));
    set({ compareSession: { ...session, takes } });
    const client = get().client;
    if (!client) return;
    const key = `${takeId}:${Object.keys(patch).join()}`;
    clearTimeout(pending.get(key)?.timer);
    const save = async () => {
      pending.delete(key);
      try {
        await client.call(API.changeCompareTake, { params: { id: session.session_id, take: takeId }, body: patch });
      } catch (error) {
        set({ compareError: describeError(error) });
      }
    };
    if (delayMs === 0) return void save();
    pending.set(key, { timer: setTimeout(() => void save(), delayMs), save });
  };

  return {
    rateTake: (takeId, rating) => change(takeId, { rating }),
    noteTake: (takeId, note) => change(takeId, { note }, NOTE_SAVE_MS),
    rateSentence(takeId, sentence, rating) {
      const take = get().compareSession?.takes.find((t) => t.take_id === takeId);
      if (!take) return;
      const ratings = [...take.sentence_ratings];
      while (ratings.length <= sentence) ratings.push(null);
      ratings[sentence] = rating;
      change(takeId, { sentence_ratings: ratings });
    },
    recordPair(choice) {
      const session = get().compareSession;
      if (session) void get().patchCompareSession({ pairs: [...session.pairs, choice] });
    },
    async flushCompareVerdicts() {
      const waiting = [...pending.values()];
      waiting.forEach(({ timer }) => clearTimeout(timer));
      await Promise.all(waiting.map(({ save }) => save()));
    },
  };
};
