import type { Capabilities, EngineSummary, OptionSupport, Voice } from '../contract';
import type { Lane } from './worker-pool';

/** One request to an engine; `voice` is the engine-local name (the part after "<engine>:"). */
export interface SynthesisRequest {
  text: string;
  voice: string;
  rate: number;
  pitch: number;
  volume: number;
}

/** 16-bit signed mono PCM at the engine's native rate. */
export interface Pcm {
  sampleRate: number;
  samples: Int16Array;
}

export type Probe =
  | { available: true; voices: Voice[]; defaultVoice: string; warnings?: string[] }
  | { available: false; reason: string };

export type EngineKind = NonNullable<EngineSummary['kind']>;

/** What every speech engine implements, whatever runs it (worker thread, child process). */
export interface EngineAdapter {
  readonly id: string;
  readonly name: string;
  readonly kind: EngineKind;
  /** Which options the engine honours itself; volume is applied after synthesis otherwise. */
  readonly capabilities: Capabilities;
  /** Detects whether the engine works here and lists its voices. */
  probe(): Promise<Probe>;
  synthesize(request: SynthesisRequest, context: SynthesisContext): Promise<Pcm>;
}

export interface SynthesisContext {
  /** Interactive work (inline, preview) goes before batch work (job chunks). */
  lane: Lane;
  signal?: AbortSignal;
}

/** How the options of `capabilities` reach the audio; volume the engine lacks is applied afterwards (services, job runner). */
export function optionSupport(capabilities: Capabilities): OptionSupport {
  return {
    rate: capabilities.rate ? 'engine' : 'ignored',
    pitch: capabilities.pitch ? 'engine' : 'ignored',
    volume: capabilities.volume ? 'engine' : 'after_synthesis',
  };
}

/** "espeak-ng:en-us" → { engine: "espeak-ng", name: "en-us" }. */
export function splitVoiceId(voiceId: string): { engine: string; name: string } | null {
  const at = voiceId.indexOf(':');
  if (at <= 0 || at === voiceId.length - 1) return null;
  return { engine: voiceId.slice(0, at), name: voiceId.slice(at + 1) };
}

/** eSpeak-style language names ("en-us", "en-gb-x-rp") as BCP 47 ("en-US", "en-GB-x-rp"). */
export function toBcp47(tag: string): string {
  const parts = tag.split(/[-_]/);
  let privateUse = false;
  return parts
    .map((part, i) => {
      if (part.toLowerCase() === 'x') privateUse = true;
      if (i === 0 || privateUse) return part.toLowerCase();
      if (part.length === 2 && /^[a-z]+$/i.test(part)) return part.toUpperCase();
      if (part.length === 4 && /^[a-z]+$/i.test(part)) return part[0]!.toUpperCase() + part.slice(1).toLowerCase();
      return part.toLowerCase();
    })
    .join('-');
}
