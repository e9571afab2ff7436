import { create } from 'zustand';
import { createJSONStorage, persist, type StateStorage } from 'zustand/middleware';
import { createCompareSlice } from './compare-slice';
import { createConnectionSlice } from './connection-slice';
import { createEditorSlice } from './editor-slice';
import { createEnginesSlice } from './engines-slice';
import { createJobsSlice } from './jobs-slice';
import { createPlayerSlice } from './player-slice';
import { createSettingsSlice } from './settings-slice';
import type { Store } from './types';

export type { Store } from './types';

export const STORAGE_KEY = 'orator.studio';

/** localStorage that never throws: a full quota must not break typing in the editor. */
const safeStorage: StateStorage = {
  getItem: (name) => {
    try {
      return localStorage.getItem(name);
    } catch {
      return null;
    }
  },
  setItem: (name, value) => {
    try {
      localStorage.setItem(name, value);
    } catch {
      // Over quota (a huge draft): keep working; the draft just is not saved this time.
    }
  },
  removeItem: (name) => {
    try {
      localStorage.removeItem(name);
    } catch {
      // ignore
    }
  },
};

/** One store of slices by concern; what the user made or chose survives a restart. */
export function createAppStore() {
  return create<Store>()(
    persist(
      (...a) => ({
        ...createConnectionSlice(...a),
        ...createEnginesSlice(...a),
        ...createEditorSlice(...a),
        ...createJobsSlice(...a),
        ...createPlayerSlice(...a),
        ...createCompareSlice(...a),
        ...createSettingsSlice(...a),
      }),
      {
        name: STORAGE_KEY,
        version: 1,
        storage: createJSONStorage(() => safeStorage),
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
        }),
      },
    ),
  );
}

export const useApp = createAppStore();
