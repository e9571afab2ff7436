import { API, type LibraryVoice, type VoiceEvent, type VoiceLibraryList } from '../api/contract';
import { describeError } from '../lib/format';
import { request } from './request';
import type { SliceCreator } from './types';

/**
 * The voice library (docs/voices.md) as its panel shows it: the list is read once, then kept
 * current by the install events of the event stream (job-sync.ts follows it). Progress patches
 * the entry in place; the list is read again only when an install ends (installed or failed: other
 * entries may change with it, a model's speakers say) and when the stream reconnects (events may
 * have been missed meanwhile). No polling.
 */
export interface VoiceLibrarySlice {
  /** Null until the panel first reads it. */
  library: VoiceLibraryList | null;
  /** The last library request's or change's error, until one succeeds. */
  libraryError: string | null;
  /**
   * The admin token pasted into the web studio's library: in memory for the page's life, never
   * persisted, so that going to Voices to hear a new voice and back keeps the library unlocked.
   */
  libraryAdminToken: string | null;
  setLibraryAdminToken(token: string): void;
  loadLibrary(): Promise<void>;
  applyVoiceEvent(event: VoiceEvent): void;
  /** Runs an install, a removal or a refresh; its error shows in the panel. */
  changeLibrary(change: () => Promise<unknown>): Promise<void>;
}

export const createVoiceLibrarySlice: SliceCreator<VoiceLibrarySlice> = (set, get) => ({
  library: null,
  libraryError: null,
  libraryAdminToken: null,
  setLibraryAdminToken: (libraryAdminToken) => set({ libraryAdminToken }),

  async loadLibrary() {
    const library = await request(
      get,
      (client) => client.call(API.listLibraryVoices),
      (message) => set({ libraryError: message }),
    );
    if (library) set({ library });
  },

  applyVoiceEvent({ type, voice }) {
    const library = get().library;
    if (!library) return;
    set({ library: { ...library, voices: library.voices.map((entry) => withInstallOf(entry, voice)) } });
    if (type === 'voice-progress') return;
    void get().loadLibrary();
    // an installed voice speaks at once: the engines list it now
    if (type === 'voice-installed') void get().loadEngines();
  },

  async changeLibrary(change) {
    try {
      await change();
      set({ libraryError: null });
    } catch (error) {
      // the admin token's refusals are the panel's to show: the API key is not in question
      set({ libraryError: describeError(error) });
    }
  },
});

/**
 * The entry as the event's voice says: the voice itself, or a speaker of it (an entry that installs
 * as that model: its one requirement, when that is a voice rather than a component such as a vocoder).
 */
function withInstallOf(entry: LibraryVoice, voice: LibraryVoice): LibraryVoice {
  if (entry.id === voice.id) return voice;
  const speakerOf = voice.engine !== 'component' && entry.requires?.length === 1 && entry.requires[0] === voice.id;
  if (!speakerOf) return entry;
  const { bytes_done: _done, bytes_total: _total, error: _error, ...rest } = entry;
  const { state, bytes_done, bytes_total, error } = voice;
  return { ...rest, state, ...(bytes_done === undefined ? {} : { bytes_done, bytes_total }), ...(error === undefined ? {} : { error }) };
}
