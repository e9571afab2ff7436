import type { StateCreator } from 'zustand';
import type { CompareSlice } from './compare-slice';
import type { CompareVerdictSlice } from './compare-verdict-slice';
import type { ConnectionSlice } from './connection-slice';
import type { EditorSlice } from './editor-slice';
import type { EnginesSlice } from './engines-slice';
import type { JobsSlice } from './jobs-slice';
import type { LexiconSlice } from './lexicon-slice';
import type { PlayerSlice } from './player-slice';
import type { ProjectsSlice } from './projects-slice';
import type { SettingsSlice } from './settings-slice';
import type { UndoDeleteSlice } from './undo-delete-slice';
import type { VoiceLibrarySlice } from './voice-library-slice';

export type Store = ConnectionSlice &
  EnginesSlice &
  EditorSlice &
  JobsSlice &
  LexiconSlice &
  ProjectsSlice &
  PlayerSlice &
  CompareSlice &
  CompareVerdictSlice &
  SettingsSlice &
  UndoDeleteSlice &
  VoiceLibrarySlice;

export type SliceCreator<T> = StateCreator<Store, [['zustand/persist', unknown]], [], T>;

/** A slice's set and get as its action modules take them (a slice creator split by concern). */
export type StoreSet = (partial: Partial<Store>) => void;
export type StoreGet = () => Store;
