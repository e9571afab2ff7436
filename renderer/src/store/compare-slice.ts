import type { InlineAudio } from '../api/client';
import { describeError } from '../lib/format';
import { clipCodePoints } from '../lib/text';
import { PREVIEW_MAX_CHARS } from '../api/contract';
import { samplePeak, wavData } from '../lib/wav-gain';
import type { SliceCreator } from './types';

export const COMPARE_MIN = 2;
export const COMPARE_MAX = 4;

export interface CompareTake {
  status: 'loading' | 'ready' | 'error';
  audio?: InlineAudio;
  /** The take's file, for playing it with a gain (16-bit WAV: `peak` is set; else played as it is). */
  file?: ArrayBuffer;
  /** Highest sample, 0 to 1; undefined when the file is not a 16-bit WAV. */
  peak?: number;
  error?: string;
  /** The tester's 1–5 stars; null before rating. */
  rating: number | null;
  note: string;
}

/** What the last run spoke, with which settings (for the export). */
export interface CompareRun {
  text: string;
  rate: number;
  pitch: number;
  volume: number;
  blind: boolean;
}

export interface CompareSlice {
  compareText: string;
  /** Two to four voice ids; '' is a slot not chosen yet. */
  compareVoices: string[];
  /** Results by slot index, for the text and voices of the last run. */
  compareTakes: Record<number, CompareTake>;
  /** Blind listening (QA): takes shuffled and their voices hidden until revealed. */
  compareBlind: boolean;
  /** The slots in the order their takes are shown: shuffled in a blind run, else 0, 1, … */
  compareOrder: number[];
  /** Whether the takes' voices are shown: always, unless a blind run is not revealed yet. */
  compareRevealed: boolean;
  /** Loudness-matched listening: each take played at one loudness (lib/loudness-match.ts). */
  compareMatch: boolean;
  compareRun: CompareRun | null;
  setCompareMatch(match: boolean): void;
  rateTake(index: number, rating: number | null): void;
  noteTake(index: number, note: string): void;
  setCompareBlind(blind: boolean): void;
  revealCompare(): void;
  setCompareText(text: string): void;
  setCompareVoice(index: number, voiceId: string): void;
  addCompareVoice(): void;
  removeCompareVoice(index: number): void;
  runCompare(): Promise<void>;
}

export const createCompareSlice: SliceCreator<CompareSlice> = (set, get) => {
  const updateTake = (index: number, patch: Partial<CompareTake>) => {
    const take = get().compareTakes[index];
    if (take) set({ compareTakes: { ...get().compareTakes, [index]: { ...take, ...patch } } });
  };
  return {
    compareText: 'The quick brown fox jumps over the lazy dog, and the narrator reads it twice.',
    compareVoices: ['', ''],
    compareTakes: {},
    compareBlind: false,
    compareOrder: [],
    compareRevealed: true,
    compareMatch: true,
    compareRun: null,

    setCompareMatch: (compareMatch) => set({ compareMatch }),
    rateTake: (index, rating) => updateTake(index, { rating }),
    noteTake: (index, note) => updateTake(index, { note }),
    setCompareText: (compareText) => set({ compareText }),
    setCompareBlind: (compareBlind) => set({ compareBlind }),
    revealCompare: () => set({ compareRevealed: true }),
    setCompareVoice: (index, voiceId) => set({ compareVoices: get().compareVoices.map((v, i) => (i === index ? voiceId : v)) }),
    addCompareVoice: () => {
      if (get().compareVoices.length < COMPARE_MAX) set({ compareVoices: [...get().compareVoices, ''] });
    },
    removeCompareVoice: (index) => {
      if (get().compareVoices.length <= COMPARE_MIN) return;
      set({ compareVoices: get().compareVoices.filter((_, i) => i !== index), compareTakes: {}, compareOrder: [] });
    },

    /** Speaks the text in every chosen voice at once; each take lands on its own row. */
    async runCompare() {
      const { client, compareText, compareVoices, compareBlind, rate, pitch, volume } = get();
      if (!client || !compareText.trim()) return;
      const text = clipCodePoints(compareText, PREVIEW_MAX_CHARS);
      const slots = compareVoices.map((_, i) => i);
      const fresh = { rating: null, note: '' };
      set({
        compareOrder: compareBlind ? shuffled(slots) : slots,
        compareRevealed: !compareBlind,
        compareRun: { text, rate, pitch, volume, blind: compareBlind },
        compareTakes: Object.fromEntries(
          compareVoices.map((v, i) => [i, v ? { status: 'loading', ...fresh } : { status: 'error', error: 'Choose a voice.', ...fresh }]),
        ),
      });
      await Promise.all(
        compareVoices.map(async (voice, index) => {
          if (!voice) return;
          let take: Pick<CompareTake, 'status' | 'audio' | 'file' | 'peak' | 'error'>;
          try {
            const audio = await client.preview({ text, voice, rate, pitch, volume });
            const file = await audio.blob.arrayBuffer();
            const data = wavData(file);
            take = { status: 'ready', audio, file, ...(data ? { peak: samplePeak(file, data) } : {}) };
          } catch (error) {
            get().noteAuthError(error);
            take = { status: 'error', error: describeError(error) };
          }
          updateTake(index, take);
        }),
      );
    },
  };
};

/** A uniformly random order (Fisher–Yates); the one given can come out, as blindness requires. */
export function shuffled<T>(items: readonly T[], random: () => number = Math.random): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** A take's name in blind listening: A, B, C, D by its place in the list. */
export const takeLetter = (position: number) => String.fromCharCode(65 + position);
