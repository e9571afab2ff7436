/**
 * One name space for voices, whichever way a request arrives (Orator's routes, the /v1 route, the
 * command line through either, an SSML `<voice name>`): an Orator voice id, an engine's own voice
 * name beside `engine`, or a name of the `openai_voices` setting (then of its defaults), which
 * stands for the voice it maps to.
 */
import { ApiError, DEFAULT_OPENAI_VOICES, type Voice } from '../contract';
import type { EngineRegistry, ResolvedVoice } from '../engines/registry';

export interface VoiceRequest {
  voice?: string | undefined;
  engine?: string | undefined;
}

/** What services need of the voices: a request's voice, resolved. */
export interface Voices {
  resolve(request: VoiceRequest): ResolvedVoice;
}

/** And what projects need: a voice for a book's language. */
export interface BookVoices extends Voices {
  forLanguage(language: string): LanguageVoice | undefined;
}

/** An installed voice for a language, and how near its own language is: the same tag, or the same language. */
export interface LanguageVoice {
  voice: Voice;
  match: 'exact' | 'language';
}

export class VoiceResolver implements BookVoices {
  constructor(
    private readonly registry: EngineRegistry,
    /** The openai_voices setting, read at every request so that a change applies at once. */
    private readonly voiceMap: () => Record<string, string>,
  ) {}

  /**
   * A mapped name gives its voice; one that cannot speak here (its engine missing or unavailable,
   * or another engine than `engine`) falls back to the default voice of `engine`, else of the
   * default engine: a tool with a hard-coded `alloy` always gets speech. Any other name is the
   * registry's to resolve (unknown: 422 unknown_voice).
   */
  resolve(request: VoiceRequest): ResolvedVoice {
    const mapped = request.voice === undefined ? undefined : this.mapped(request.voice);
    if (mapped === undefined) return this.registry.resolve(request);
    const { engine } = request;
    try {
      const resolved = this.registry.resolve({ voice: mapped });
      if (engine === undefined || resolved.adapter.id === engine) return resolved;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
    return this.registry.resolve(engine === undefined ? {} : { engine });
  }

  /**
   * An installed voice that speaks `language` (BCP 47, as a book's file gives it: "de-DE", "en",
   * "pt_BR"): one of the same tag first, else one of the same language, the engine's default
   * voice or a voice of the bare language ("de" for "de-AT") before a regional one; engines in the
   * registry's order (the default engine first). Undefined when no voice speaks it.
   */
  forLanguage(language: string): LanguageVoice | undefined {
    const wanted = language.trim().replace(/_/g, '-').toLowerCase();
    const primary = wanted.split('-')[0];
    if (!primary) return undefined;
    let best: { voice: Voice; rank: number } | undefined;
    for (const engine of this.registry.summaries()) {
      if (!engine.available) continue;
      for (const voice of this.registry.detail(engine.id).voices) {
        const tag = voice.language.toLowerCase();
        if (tag.split('-')[0] !== primary) continue;
        const rank = tag === wanted ? 0 : voice.id === engine.defaultVoice || tag === primary ? 1 : 2;
        if (!best || rank < best.rank) best = { voice, rank };
        if (rank === 0) return { voice, match: 'exact' };
      }
    }
    return best && { voice: best.voice, match: 'language' };
  }

  /** The voice id a name of the map stands for (the setting, then the defaults); undefined for any other name. */
  mapped(name: string): string | undefined {
    return lookup(this.voiceMap(), name) ?? lookup(DEFAULT_OPENAI_VOICES, name);
  }

  /** Every name of the map (the defaults, then the setting's own), with the voice each stands for. */
  names(): [name: string, voice: string][] {
    return Object.entries({ ...DEFAULT_OPENAI_VOICES, ...this.voiceMap() });
  }
}

/** Own keys only: "constructor" is no voice. */
function lookup(map: Readonly<Record<string, string>>, name: string): string | undefined {
  return Object.hasOwn(map, name) ? map[name] : undefined;
}
