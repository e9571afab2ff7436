import type { OratorClient } from '../api/client';
import { API, ApiError, COMPARE_LIMITS, type CompareSession, type CompareSessionPatch, type CompareSessionSummary } from '../api/contract';
import { describeError } from '../lib/format';
import { samplePeak, wavData } from '../lib/wav-gain';
import type { SliceCreator, Store } from './types';

/** A ready take's audio as fetched once per session: its file (for gain and blind trimming) and peak. */
export interface TakeFile {
  blob: Blob;
  file: ArrayBuffer;
  /** Highest sample, 0 to 1; undefined when the file is not a 16-bit WAV. */
  peak?: number;
}

/** A line of three dashes between texts: a session of several texts from one field (read line by line: linear). */
export function splitTexts(draft: string): string[] {
  const texts: string[][] = [[]];
  for (const line of draft.split('\n')) {
    if (line.trim() === '---') texts.push([]);
    else texts.at(-1)!.push(line);
  }
  return texts.map((lines) => lines.join('\n').trim()).filter(Boolean);
}

export interface CompareSlice {
  /** The texts to compare, separated by a line of "---". */
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

export const createCompareSlice: SliceCreator<CompareSlice> = (set, get) => {
  const api = () => get().client;
  /** Runs a gateway call, keeping its error on the panel. */
  const attempt = async <T>(work: (compare: OratorClient) => Promise<T>): Promise<T | undefined> => {
    const compare = api();
    if (!compare) return undefined;
    try {
      set({ compareError: null });
      return await work(compare);
    } catch (error) {
      set({ compareError: describeError(error) });
      return undefined;
    }
  };
  const show = (session: CompareSession) => {
    const known = get().compareSession?.session_id === session.session_id;
    set({
      compareSession: session,
      compareSessionId: session.session_id,
      compareAudio: known ? get().compareAudio : {},
      ...(known ? {} : { compareVoices: session.voices, compareText: session.texts.join('\n---\n'), compareBlind: session.blind }),
    });
    void loadAudio(session);
    if (session.takes.some((t) => t.status === 'running')) follow(session.session_id);
  };
  const loadAudio = async (session: CompareSession) => {
    const compare = api();
    for (const take of session.takes) {
      if (!compare || take.status !== 'ready' || get().compareAudio[take.take_id]) continue;
      try {
        const blob = await compare.blob(API.getCompareTakeAudio, { params: { id: session.session_id, take: take.take_id } });
        const file = await blob.arrayBuffer();
        const data = wavData(file);
        if (get().compareSession?.session_id !== session.session_id) return;
        const audio: TakeFile = { blob, file, ...(data ? { peak: samplePeak(file, data) } : {}) };
        set({ compareAudio: { ...get().compareAudio, [take.take_id]: audio } });
      } catch {
        // a take whose audio cannot be read shows without it; a refused key went to the key prompt
      }
    }
  };
  let following: string | null = null;
  /** Reads the session every second while a take is running: each take's progress, then its audio. */
  const follow = (id: string) => {
    if (following === id) return;
    following = id;
    const tick = async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      if (get().compareSessionId !== id) return void (following = null);
      const session = await attempt((compare) => compare.call(API.getCompareSession, { params: { id } }));
      following = null;
      if (session && get().compareSessionId === id) show(session);
    };
    void tick();
  };

  return {
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

    async loadCompareSessions() {
      const list = await attempt((compare) => compare.call(API.listCompareSessions));
      if (list) set({ compareSessions: list.sessions });
    },

    async openCompareSession(id) {
      if (id === null) {
        set({ compareSession: null, compareSessionId: null, compareAudio: {}, compareError: null });
        return;
      }
      const session = await attempt((compare) => compare.call(API.getCompareSession, { params: { id } }));
      if (session) show(session);
      // a session deleted elsewhere is forgotten rather than shown as an error at every start
      else if (get().compareSessionId === id) set({ compareSessionId: null, compareError: null });
    },

    async runCompare(confirmReplace) {
      const { compareSession: open, compareVoices: voices, compareText, compareBlind: blind, rate, pitch, volume } = get();
      const texts = splitTexts(compareText);
      if (texts.length === 0 || voices.length === 0) return;
      set({ compareBusy: true });
      const body = { texts, voices, rate, pitch, volume, blind, loudness_match: get().compareMatch };
      const session = await attempt(async (compare) => {
        if (!open) return compare.call(API.createCompareSession, { body: { ...body, name: `Session ${new Date().toLocaleString()}` } });
        try {
          return await compare.call(API.changeCompareSession, { params: { id: open.session_id }, body });
        } catch (error) {
          if (!(error instanceof ApiError && error.code === 'takes_would_be_replaced')) throw error;
          return confirmReplace(error.message)
            ? compare.call(API.changeCompareSession, { params: { id: open.session_id }, body: { ...body, replace_takes: true } })
            : undefined;
        }
      });
      const queued =
        session && (await attempt((compare) => compare.call(API.synthesizeCompareSession, { params: { id: session.session_id } })));
      set({ compareBusy: false });
      if (queued) show(queued);
      void get().loadCompareSessions();
    },

    async duplicateCompareSession() {
      const open = get().compareSession;
      const copy =
        open && (await attempt((compare) => compare.call(API.duplicateCompareSession, { params: { id: open.session_id }, body: {} })));
      if (copy) {
        set({ compareSession: null });
        show(copy);
        void get().loadCompareSessions();
      }
    },

    async deleteCompareSession(id) {
      await attempt((compare) => compare.call(API.deleteCompareSession, { params: { id } }));
      if (get().compareSessionId === id) await get().openCompareSession(null);
      await get().loadCompareSessions();
    },

    async patchCompareSession(patch) {
      const open = get().compareSession;
      const session =
        open && (await attempt((compare) => compare.call(API.changeCompareSession, { params: { id: open.session_id }, body: patch })));
      if (session) show(session);
    },
  };
};

/** The open session's take by id. */
export const takeOf = (state: Pick<Store, 'compareSession'>, takeId: string) =>
  state.compareSession?.takes.find((t) => t.take_id === takeId);

/** A take's name in blind listening: A, B, C … by its place in the list. */
export const takeLetter = (position: number) => String.fromCharCode(65 + position);
