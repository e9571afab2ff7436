import { API } from '../api/contract';
import type { LexiconEntry, LexiconEntryInput, LexiconFormat } from '../api/contract';
import { request, type Work } from './request';
import type { SliceCreator } from './types';

/** The pronunciation lexicon (docs/lexicon.md), as the panel shows and edits it. */
export interface LexiconSlice {
  lexicon: LexiconEntry[];
  /** The last lexicon request's error, until a change succeeds. */
  lexiconError: string | null;
  /** What the last change did ("Added “Siobhan”."), until a request fails. */
  lexiconNotice: string | null;
  /** The entry whose preview is loading. */
  hearingEntry: string | null;
  loadLexicon(): Promise<void>;
  /** Changes resolve to whether they succeeded; an error shows in the panel. */
  addLexiconEntry(entry: LexiconEntryInput): Promise<boolean>;
  deleteLexiconEntry(id: string): Promise<boolean>;
  importLexicon(file: File, language: string): Promise<boolean>;
  /** The lexicon as a file: PLS of one language, or CSV; null when it could not be had. */
  exportLexicon(format: LexiconFormat, language: string): Promise<Blob | null>;
  /** Plays the entry's word in `voiceId` (or its own voice) through /preview, which applies the lexicon. */
  hearLexiconEntry(entry: LexiconEntry, voiceId: string): Promise<void>;
}

export const createLexiconSlice: SliceCreator<LexiconSlice> = (set, get) => {
  /** A lexicon request; its error replaces what the panel said. */
  const lexiconRequest = <T>(work: Work<T>) => request(get, work, (message) => set({ lexiconError: message, lexiconNotice: null }));
  /** A change that answers the whole lexicon: shown, with what it did when that is worth saying. */
  const change = async (work: Work<LexiconEntry[]>, notice?: () => string) => {
    const entries = await lexiconRequest(work);
    if (entries) set({ lexicon: entries, ...(notice ? { lexiconNotice: notice(), lexiconError: null } : {}) });
    return entries !== null;
  };

  return {
    lexicon: [],
    lexiconError: null,
    lexiconNotice: null,
    hearingEntry: null,

    async loadLexicon() {
      const list = await lexiconRequest((client) => client.call(API.getLexicon));
      if (list) set({ lexicon: list.entries });
    },

    addLexiconEntry: (entry) =>
      change(
        async (client) => (await client.call(API.changeLexicon, { body: { entries: [entry] } })).entries,
        () => `Added "${entry.grapheme}".`,
      ),

    deleteLexiconEntry: (id) => change(async (client) => (await client.call(API.changeLexicon, { body: { delete: [id] } })).entries),

    importLexicon(file, language) {
      let counts = '';
      return change(
        async (client) => {
          const format: LexiconFormat = /\.csv$/i.test(file.name) ? 'csv' : 'pls';
          const result = await client.call(API.importLexicon, { body: { format, data: await file.text(), language } });
          counts = `${result.added} added, ${result.replaced} replaced`;
          return (await client.call(API.getLexicon)).entries;
        },
        () => `Imported ${file.name}: ${counts}.`,
      );
    },

    exportLexicon: (format, language) =>
      lexiconRequest((client) => client.blob(API.exportLexicon, { query: { format, ...(format === 'pls' ? { language } : {}) } })),

    async hearLexiconEntry(entry, voiceId) {
      set({ hearingEntry: entry.id });
      const audio = await lexiconRequest((client) => client.preview({ text: entry.grapheme, voice: entry.voice ?? voiceId }));
      set({ hearingEntry: null });
      if (audio) get().playAudio(audio, { title: `Lexicon · ${entry.grapheme}` });
    },
  };
};
