import type { SliceCreator } from './types';

export type Theme = 'system' | 'light' | 'dark';
export type Tab = 'studio' | 'voices' | 'library' | 'compare' | 'lexicon' | 'projects';

/** Where the lexicon was opened from: a project, whose voice "Hear it" then speaks with. */
export interface LexiconContext {
  voice: string;
  project: string;
}

export interface SettingsSlice {
  theme: Theme;
  tab: Tab;
  /** Null: the lexicon was opened from its tab, and hears entries with the studio's voice. */
  lexiconContext: LexiconContext | null;
  setTheme(theme: Theme): void;
  setTab(tab: Tab): void;
  /** Opens the lexicon for a project: "Hear it" starts with the project's voice. */
  openLexiconFor(context: LexiconContext): void;
}

export const createSettingsSlice: SliceCreator<SettingsSlice> = (set) => ({
  theme: 'system',
  tab: 'studio',
  lexiconContext: null,
  setTheme: (theme) => set({ theme }),
  setTab: (tab) => set({ tab, lexiconContext: null }),
  openLexiconFor: (lexiconContext) => set({ tab: 'lexicon', lexiconContext }),
});
