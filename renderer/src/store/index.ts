import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { createCompareSlice } from './compare-slice';
import { createCompareVerdictSlice } from './compare-verdict-slice';
import { createConnectionSlice } from './connection-slice';
import { createEditorSlice } from './editor-slice';
import { createEnginesSlice } from './engines-slice';
import { createJobsSlice } from './jobs-slice';
import { createLexiconSlice } from './lexicon-slice';
import { createPlayerSlice } from './player-slice';
import { deferredLocalStorage } from './persist-storage';
import { createProjectsSlice } from './projects-slice';
import { createSettingsSlice } from './settings-slice';
import type { Store } from './types';
import { createUndoDeleteSlice } from './undo-delete-slice';
import { createVoiceLibrarySlice } from './voice-library-slice';

export type { Store } from './types';

export const STORAGE_KEY = 'orator.studio';

/** One store of slices by concern; what the user made or chose survives a restart. */
export function createAppStore() {
  const storage = deferredLocalStorage<Partial<Store>>();
  const store = create<Store>()(
    persist(
      (...a) => ({
        ...createConnectionSlice(...a),
        ...createEnginesSlice(...a),
        ...createEditorSlice(...a),
        ...createJobsSlice(...a),
        ...createLexiconSlice(...a),
        ...createProjectsSlice(...a),
        ...createPlayerSlice(...a),
        ...createCompareSlice(...a),
        ...createCompareVerdictSlice(...a),
        ...createSettingsSlice(...a),
        ...createUndoDeleteSlice(...a),
        ...createVoiceLibrarySlice(...a),
      }),
      {
        name: STORAGE_KEY,
        version: 1,
        storage,
        partialize: (s) => ({
          text: s.text,
          voiceId: s.voiceId,
          rate: s.rate,
          pitch: s.pitch,
          volume: s.volume,
          favourites: s.favourites,
          theme: s.theme,
          tab: s.tab,
          compareText: s.compareText,
          compareVoices: s.compareVoices,
          compareMatch: s.compareMatch,
          compareBlind: s.compareBlind,
          compareSessionId: s.compareSessionId,
          jobOrder: s.jobOrder,
        }),
      },
    ),
  );
  return Object.assign(store, { flushPersisted: storage.flush });
}

export const useApp = createAppStore();
