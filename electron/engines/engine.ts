import type { Capabilities, EngineSummary, OptionSupport, PhonemeAlphabet, Voice } from '../contract';
import type { Pcm } from '../audio/pcm';
import type { Lane } from './lanes';
import type { ProbeOptions } from './probe-memo';

/** A hung engine (a process, or an embedded engine's thread) is stopped after this long: engine_timeout. */
export const ENGINE_TIMEOUT_MS = 120_000;

/** How many steps of niceness batch work runs below the gateway (engine processes and worker threads of job chunks; thread-priority.ts). */
export const BACKGROUND_NICE = 10;

/** One request to an engine; `voice` is the engine-local name (the part after "<engine>:"). */
export interface SynthesisRequest {
  text: string;
  voice: string;
  rate: number;
  pitch: number;
  volume: number;
}

export type Probe = { available: true; voices: Voice[]; defaultVoice: string; warnings?: string[] } | { available: false; reason: string };

export type EngineKind = NonNullable<EngineSummary['kind']>;

/** What every speech engine implements, whatever runs it (worker thread, child process). */
export interface EngineAdapter {
  readonly id: string;
  readonly name: string;
  readonly kind: EngineKind;
  /** Which options the engine honours itself; volume is applied after synthesis otherwise. */
  readonly capabilities: Capabilities;
  /** The phoneme alphabet the engine reads inline in text (eSpeak's [[…]]), for lexicon entries. */
  readonly phonemeAlphabet?: PhonemeAlphabet;
  /**
   * Detects whether the engine works here and lists its voices. With `reuse` (start-up), an
   * engine may answer what it answered earlier in this process while nothing it depends on
   * changed (probe-memo.ts); without it, it probes afresh.
   */
  probe(options?: ProbeOptions): Promise<Probe>;
  /**
   * Engines that run a program: throws (UntrustedProgram, with the reason) unless `file` may be
   * run as this engine's program. For the engine_executables setting, before it is saved.
   */
  vetProgram?(file: string): Promise<void>;
  synthesize(request: SynthesisRequest, context: SynthesisContext): Promise<Pcm>;
  /**
   * What the engine's audio depends on besides the request: its program or package, and their
   * version. The render cache keys audio by it, so that an engine updated in place is heard anew;
   * an engine without it is keyed by Orator's own version.
   */
  version?(): string;
  /** Engines that keep models loaded: stops what holds them (before a model's files are removed). */
  release?(): Promise<void>;
  /**
   * Engines whose every call costs much more than its text (a program to start, a hop to an engine
   * thread and back) take several requests of one voice and prosody in one call, up to this many
   * characters together.
   */
  readonly batchChars?: number;
  /**
   * The audio of each request (same voice and prosody), from one call; rejects when it cannot
   * tell them apart, and the caller then synthesizes them one by one.
   */
  synthesizeBatch?(requests: SynthesisRequest[], context: SynthesisContext): Promise<Pcm[]>;
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

/** Engine language names that are no BCP 47 tag at all. */
const LANGUAGE_ALIASES: Record<string, string> = { piqd: 'tlh-Piqd' }; // eSpeak's Klingon in pIqaD script

/**
 * Engine language names ("en-us", "en-gb-x-rp", "en-us-nyc", "chr-US-Qaaa-x-west") as valid
 * BCP 47 ("en-US", "en-GB-x-rp", "en-US-x-nyc", "chr-Qaaa-US-x-west"): subtags put in order,
 * anything that is not a script, region or variant moved to the private-use part.
 */
export function toBcp47(tag: string): string {
  const alias = LANGUAGE_ALIASES[tag.toLowerCase()];
  if (alias) return alias;
  const [primary = 'und', ...rest] = tag.split(/[-_]/).filter(Boolean);
  let script: string | undefined;
  let region: string | undefined;
  const variants: string[] = [];
  const privateUse: string[] = [];
  for (const [i, part] of rest.entries()) {
    if (part.toLowerCase() === 'x') {
      privateUse.push(...rest.slice(i + 1).map((p) => p.toLowerCase()));
      break;
    }
    if (!script && /^[a-z]{4}$/i.test(part)) script = part[0]!.toUpperCase() + part.slice(1).toLowerCase();
    else if (!region && /^([a-z]{2}|\d{3})$/i.test(part)) region = part.toUpperCase();
    else if (/^([a-z\d]{5,8}|\d[a-z\d]{3})$/i.test(part)) variants.push(part.toLowerCase());
    else privateUse.push(part.toLowerCase());
  }
  const parts = [primary.toLowerCase(), script, region, ...variants, ...(privateUse.length ? ['x', ...privateUse] : [])];
  const candidate = parts.filter(Boolean).join('-');
  try {
    return Intl.getCanonicalLocales(candidate)[0]!;
  } catch {
    return `und-x-${tag
      .toLowerCase()
      .replace(/[^a-z\d]+/g, '-')
      .slice(0, 8)}`;
  }
}
