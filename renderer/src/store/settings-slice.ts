import type { SliceCreator } from './types';

export type Theme = 'system' | 'light' | 'dark';
export type Tab = 'studio' | 'voices' | 'library' | 'compare' | 'lexicon' | 'projects';

export interface SettingsSlice {
  theme: Theme;
  tab: Tab;
  setTheme(theme: Theme): void;
  setTab(tab: Tab): void;
}

export const createSettingsSlice: SliceCreator<SettingsSlice> = (set) => ({
  theme: 'system',
  tab: 'studio',
  setTheme: (theme) => set({ theme }),
  setTab: (tab) => set({ tab }),
});
