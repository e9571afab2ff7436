import { API, splitVoiceId, type EngineSummary, type Voice } from '../api/contract';
import { describeError } from '../lib/format';
import { languageName } from '../lib/languages';
import type { SliceCreator, Store } from './types';

export type Gender = '' | 'male' | 'female';

export interface VoiceFilters {
  /** '' = all engines */
  engine: string;
  /** '' = all languages; else a primary language subtag such as "en" */
  language: string;
  gender: Gender;
  query: string;
  favouritesOnly: boolean;
}

export interface EnginesSlice {
  engines: EngineSummary[];
  enginesStatus: 'idle' | 'loading' | 'ready' | 'error';
  enginesError: string | null;
  /** Voices per available engine, loaded with the engine list. */
  voices: Record<string, Voice[]>;
  favourites: string[];
  filters: VoiceFilters;
  previewingVoice: string | null;
  previewError: { voice: string; message: string } | null;
  loadEngines(): Promise<void>;
  toggleFavourite(voiceId: string): void;
  setFilters(filters: Partial<VoiceFilters>): void;
  previewVoice(voiceId: string): Promise<void>;
}

export const createEnginesSlice: SliceCreator<EnginesSlice> = (set, get) => ({
  engines: [],
  enginesStatus: 'idle',
  enginesError: null,
  voices: {},
  favourites: [],
  filters: { engine: '', language: '', gender: '', query: '', favouritesOnly: false },
  previewingVoice: null,
  previewError: null,

  async loadEngines() {
    const client = get().client;
    if (!client) return;
    set({ enginesStatus: 'loading', enginesError: null });
    try {
      const { engines } = await client.call(API.listEngines);
      const details = await Promise.all(
        engines.filter((e) => e.available).map((e) => client.call(API.getEngine, { params: { id: e.id } })),
      );
      set({ engines, voices: Object.fromEntries(details.map((d) => [d.id, d.voices])), enginesStatus: 'ready' });
    } catch (error) {
      set({ enginesStatus: 'error', enginesError: describeError(error) });
    }
  },

  toggleFavourite(voiceId) {
    const favourites = get().favourites;
    set({ favourites: favourites.includes(voiceId) ? favourites.filter((v) => v !== voiceId) : [...favourites, voiceId] });
  },

  setFilters(filters) {
    set({ filters: { ...get().filters, ...filters } });
  },

  async previewVoice(voiceId) {
    const client = get().client;
    if (!client) return;
    set({ previewingVoice: voiceId, previewError: null });
    try {
      const { rate, pitch, volume } = get();
      const audio = await client.preview({ voice: voiceId, rate, pitch, volume });
      get().playAudio(audio, { title: `Preview · ${voiceLabel(get(), voiceId)}` });
    } catch (error) {
      set({ previewError: { voice: voiceId, message: describeError(error) } });
    } finally {
      if (get().previewingVoice === voiceId) set({ previewingVoice: null });
    }
  },
});

/** All voices, engine by engine in the gateway's order. */
export function allVoices(state: Pick<Store, 'engines' | 'voices'>): Voice[] {
  return state.engines.flatMap((e) => state.voices[e.id] ?? []);
}

export const engineIdOf = (voiceId: string) => splitVoiceId(voiceId)?.engine ?? voiceId;

export function findVoice(state: Pick<Store, 'engines' | 'voices'>, voiceId: string): Voice | undefined {
  return state.voices[engineIdOf(voiceId)]?.find((v) => v.id === voiceId);
}

/** The engine's name from GET /engines ("SVOX Pico (embedded)"); its id while the list is not loaded. */
export function engineName(state: Pick<Store, 'engines'>, engineId: string): string {
  return state.engines.find((e) => e.id === engineId)?.name ?? engineId;
}

/**
 * A voice as the studio names it: "US English (female) · SVOX Pico (embedded)". The engine is part
 * of the name because engines share voice names (SVOX Pico and pico2wave, Flite and flite).
 */
export function voiceLabel(state: Pick<Store, 'engines' | 'voices'>, voiceId: string): string {
  const voice = findVoice(state, voiceId);
  return voice ? `${voice.name} · ${engineName(state, engineIdOf(voiceId))}` : voiceId;
}

/**
 * A voice picker option, "US English (female) · SVOX Pico (embedded) · en-US". A closed select
 * shows only this text, not its group, so it names the engine too, before the tag that a narrow
 * select may cut off.
 */
export function voiceOptionLabel(state: Pick<Store, 'engines'>, voice: Voice): string {
  // Names often say the language already ("English (America)"); the tag tells variants apart.
  return `${voice.name} · ${engineName(state, engineIdOf(voice.id))} · ${voice.language}`;
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** By name as displayed, then by engine name, then id, so equal names sit together in a stable order. */
export function sortVoices(state: Pick<Store, 'engines'>, voices: readonly Voice[]): Voice[] {
  const names = new Map(state.engines.map((e) => [e.id, e.name]));
  const engine = (v: Voice) => names.get(engineIdOf(v.id)) ?? engineIdOf(v.id);
  return [...voices].sort((a, b) => collator.compare(a.name, b.name) || collator.compare(engine(a), engine(b)) || a.id.localeCompare(b.id));
}

export const primaryLanguage = (tag: string) => tag.split(/[-_]/)[0]!.toLowerCase();

/** Voices that pass the filters, sorted by name; favourites float to the top. */
export function filterVoices(state: Pick<Store, 'engines' | 'voices' | 'favourites' | 'filters'>): Voice[] {
  const { engine, language, gender, query, favouritesOnly } = state.filters;
  const needle = query.trim().toLowerCase();
  const favourites = new Set(state.favourites);
  const matches = allVoices(state).filter((v) => {
    if (engine && !v.id.startsWith(`${engine}:`)) return false;
    if (language && primaryLanguage(v.language) !== language) return false;
    if (gender && v.gender !== gender) return false;
    if (favouritesOnly && !favourites.has(v.id)) return false;
    if (!needle) return true;
    return [v.name, v.id, v.language, languageName(v.language), engineName(state, engineIdOf(v.id))].some((s) =>
      s.toLowerCase().includes(needle),
    );
  });
  const sorted = sortVoices(state, matches);
  return [...sorted.filter((v) => favourites.has(v.id)), ...sorted.filter((v) => !favourites.has(v.id))];
}

/** Primary languages present among the voices, with their names, sorted by name. */
export function languageOptions(state: Pick<Store, 'engines' | 'voices'>): { code: string; name: string }[] {
  const codes = new Set(allVoices(state).map((v) => primaryLanguage(v.language)));
  return [...codes]
    .map((code) => ({ code, name: languageName(code) }))
    .sort((a, b) => collator.compare(a.name, b.name) || a.code.localeCompare(b.code));
}
