import type { InlineAudio } from '../api/client';
import { describeError } from '../lib/format';
import { clipCodePoints } from '../lib/text';
import { PREVIEW_MAX_CHARS } from '../api/contract';
import type { SliceCreator } from './types';

export const COMPARE_MIN = 2;
export const COMPARE_MAX = 4;

export interface CompareTake {
  status: 'loading' | 'ready' | 'error';
  audio?: InlineAudio;
  error?: string;
}

export interface CompareSlice {
  compareText: string;
  /** Two to four voice ids; '' is a slot not chosen yet. */
  compareVoices: string[];
  /** Results by slot index, for the text and voices of the last run. */
  compareTakes: Record<number, CompareTake>;
  setCompareText(text: string): void;
  setCompareVoice(index: number, voiceId: string): void;
  addCompareVoice(): void;
  removeCompareVoice(index: number): void;
  runCompare(): Promise<void>;
}

export const createCompareSlice: SliceCreator<CompareSlice> = (set, get) => ({
  compareText: 'The quick brown fox jumps over the lazy dog, and the narrator reads it twice.',
  compareVoices: ['', ''],
  compareTakes: {},

  setCompareText: (compareText) => set({ compareText }),
  setCompareVoice: (index, voiceId) => set({ compareVoices: get().compareVoices.map((v, i) => (i === index ? voiceId : v)) }),
  addCompareVoice: () => {
    if (get().compareVoices.length < COMPARE_MAX) set({ compareVoices: [...get().compareVoices, ''] });
  },
  removeCompareVoice: (index) => {
    if (get().compareVoices.length <= COMPARE_MIN) return;
    set({ compareVoices: get().compareVoices.filter((_, i) => i !== index), compareTakes: {} });
  },

  /** Speaks the text in every chosen voice at once; each take lands on its own row. */
  async runCompare() {
    const { client, compareText, compareVoices, rate, pitch, volume } = get();
    if (!client || !compareText.trim()) return;
    const text = clipCodePoints(compareText, PREVIEW_MAX_CHARS);
    set({
      compareTakes: Object.fromEntries(
        compareVoices.map((v, i) => [i, v ? { status: 'loading' } : { status: 'error', error: 'Choose a voice.' }]),
      ),
    });
    await Promise.all(
      compareVoices.map(async (voice, index) => {
        if (!voice) return;
        let take: CompareTake;
        try {
          take = { status: 'ready', audio: await client.preview({ text, voice, rate, pitch, volume }) };
        } catch (error) {
          get().noteAuthError(error);
          take = { status: 'error', error: describeError(error) };
        }
        set({ compareTakes: { ...get().compareTakes, [index]: take } });
      }),
    );
  },
});
