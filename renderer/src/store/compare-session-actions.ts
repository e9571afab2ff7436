import type { OratorClient } from '../api/client';
import { API, ApiError, type CompareSession, type CompareSessionCreate } from '../api/contract';
import { splitTexts } from '../lib/compare-texts';
import type { CompareGateway } from './compare-gateway';
import type { CompareSlice } from './compare-slice';
import type { StoreGet, StoreSet } from './types';

type SessionActions = Pick<
  CompareSlice,
  'loadCompareSessions' | 'openCompareSession' | 'runCompare' | 'duplicateCompareSession' | 'deleteCompareSession' | 'patchCompareSession'
>;

/**
 * Saves texts, voices and options into the open session, or a new one when none is open. A change
 * that would drop takes is sent again with replace_takes only when the listener agrees.
 */
async function saveSession(
  compare: OratorClient,
  open: CompareSession | null,
  body: CompareSessionCreate,
  confirmReplace: (lost: string) => boolean,
): Promise<CompareSession | undefined> {
  if (!open) return compare.call(API.createCompareSession, { body: { ...body, name: `Session ${new Date().toLocaleString()}` } });
  try {
    return await compare.call(API.changeCompareSession, { params: { id: open.session_id }, body });
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'takes_would_be_replaced')) throw error;
    return confirmReplace(error.message)
      ? compare.call(API.changeCompareSession, { params: { id: open.session_id }, body: { ...body, replace_takes: true } })
      : undefined;
  }
}

/** The compare sessions: listed, opened, run (saved, then synthesized), duplicated, deleted, changed. */
export function compareSessionActions(set: StoreSet, get: StoreGet, { attempt, show }: CompareGateway): SessionActions {
  return {
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
      const session = await attempt((compare) => saveSession(compare, open, body, confirmReplace));
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
}
