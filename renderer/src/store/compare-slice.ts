import { COMPARE_LIMITS, type CompareSession, type CompareSessionPatch, type CompareSessionSummary } from '../api/contract';
import { compareGateway } from './compare-gateway';
import { compareSessionActions } from './compare-session-actions';
import type { SliceCreator, Store } from './types';

/** A ready take's audio as fetched once per session: its file (for gain and blind trimming) and peak. */
export interface TakeFile {
  blob: Blob;
  file: ArrayBuffer;
  /** Highest sample, 0 to 1; undefined when the file is not a 16-bit WAV. */
  peak?: number;
}

export interface CompareSlice {
  /** The texts to compare, separated by a line of "---" (lib/compare-texts.ts). */
  compareText: string;
  /** Voice ids chosen for the next run (up to 24). */
  compareVoices: string[];
  /** Blind listening for a new session. */
  compareBlind: boolean;
  /** Loudness-matched listening (lib/loudness-match.ts). */
  compareMatch: boolean;
  /** The open session, remembered over a reload. */
  compareSessionId: string | null;
  compareSession: CompareSession | null;
  compareSessions: CompareSessionSummary[];
  compareAudio: Record<string, TakeFile>;
  compareBusy: boolean;
  compareError: string | null;
  setCompareText(text: string): void;
  addCompareVoices(voiceIds: string[]): void;
  removeCompareVoice(voiceId: string): void;
  setCompareBlind(blind: boolean): void;
  setCompareMatch(match: boolean): void;
  loadCompareSessions(): Promise<void>;
  openCompareSession(id: string | null): Promise<void>;
  /** Saves the texts and voices into the open session (or a new one) and synthesizes what is missing. */
  runCompare(confirmReplace: (lost: string) => boolean): Promise<void>;
  duplicateCompareSession(): Promise<void>;
  deleteCompareSession(id: string): Promise<void>;
  /** Saves a change of the session's own fields (name, reveal, pairs) and shows the answer. */
  patchCompareSession(patch: CompareSessionPatch): Promise<void>;
}

export const createCompareSlice: SliceCreator<CompareSlice> = (set, get) => ({
  compareText: 'The quick brown fox jumps over the lazy dog. The narrator reads it twice, slowly. Then she stops.',
  compareVoices: [],
  compareBlind: false,
  compareMatch: true,
  compareSessionId: null,
  compareSession: null,
  compareSessions: [],
  compareAudio: {},
  compareBusy: false,
  compareError: null,

  setCompareText: (compareText) => set({ compareText }),
  addCompareVoices: (ids) => {
    const voices = [...new Set([...get().compareVoices, ...ids])];
    set({ compareVoices: voices.slice(0, COMPARE_LIMITS.voices) });
  },
  removeCompareVoice: (id) => set({ compareVoices: get().compareVoices.filter((v) => v !== id) }),
  setCompareBlind: (compareBlind) => set({ compareBlind }),
  setCompareMatch: (compareMatch) => set({ compareMatch }),
  ...compareSessionActions(set, get, compareGateway(set, get)),
});

/** The open session's take by id. */
export const takeOf = (state: Pick<Store, 'compareSession'>, takeId: string) =>
  state.compareSession?.takes.find((t) => t.take_id === takeId);

/** A take's name in blind listening: A, B, C … by its place in the list. */
export const takeLetter = (position: number) => String.fromCharCode(65 + position);
