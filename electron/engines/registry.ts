import { ApiError, splitVoiceId, type EngineDetail, type EngineSummary, type Voice } from '../contract';
import type { Pcm } from '../audio/pcm';
import type { EngineAdapter, Probe, SynthesisContext, SynthesisRequest } from './engine';
import { optionSupport } from './engine';
import { UntrustedProgram } from './executable';
import type { ProbeOptions } from './probe-memo';
import { synthesizeWithPolicy } from './output-policy';

/** Rate, pitch and volume of a request, 1 meaning the voice's own. */
export type Prosody = Pick<SynthesisRequest, 'rate' | 'pitch' | 'volume'>;

interface Entry {
  adapter: EngineAdapter;
  probe: Probe;
}

export interface ResolvedVoice {
  adapter: EngineAdapter;
  voice: Voice;
  /** The voice name the engine itself knows. */
  localName: string;
  /** Synthesizes with this voice, through the output policy every engine's audio goes through. */
  synthesize(prosody: Prosody & { text: string }, context: SynthesisContext): Promise<Pcm>;
}

/** The engines of this machine, probed at start-up; the first available one is the default. */
export class EngineRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly probing = new Map<string, Promise<void>>();

  constructor(adapters: EngineAdapter[]) {
    for (const adapter of adapters) {
      if (this.entries.has(adapter.id)) throw new Error(`Duplicate engine id "${adapter.id}"`);
      this.entries.set(adapter.id, { adapter, probe: { available: false, reason: 'Not probed yet' } });
    }
  }

  /** The start-up probe: engines may answer what they answered earlier in this process, while it holds (probe-memo.ts). */
  async probeAll(): Promise<void> {
    await Promise.all([...this.entries.keys()].map((id) => this.refresh(id, { reuse: true })));
  }

  /** Probes an engine again; a refresh asked for while one runs shares it, so a burst of refreshes starts no burst of programs. */
  async refresh(id: string, options: ProbeOptions = {}): Promise<void> {
    const entry = this.entry(id);
    let probing = this.probing.get(id);
    if (!probing) {
      probing = entry.adapter
        .probe(options)
        .catch((error: Error) => ({ available: false as const, reason: error.message }))
        .then((probe) => {
          entry.probe = probe;
        })
        .finally(() => this.probing.delete(id));
      this.probing.set(id, probing);
    }
    return probing;
  }

  /** Lets an engine free the models it holds loaded (the voice library removes one). */
  async release(id: string): Promise<void> {
    await this.entry(id).adapter.release?.();
  }

  summaries(): EngineSummary[] {
    return [...this.entries.values()].map(summarize);
  }

  detail(id: string): EngineDetail {
    const entry = this.entry(id);
    const options = optionSupport(entry.adapter.capabilities);
    const voices = entry.probe.available ? entry.probe.voices : [];
    return { ...summarize(entry), voices: voices.map((voice) => ({ options, ...voice })) };
  }

  /**
   * Whether `file` may be saved as the program of engine `engineId` (the engine_executables
   * setting): only engines that run a program take one, and only a program they would run.
   */
  async vetProgram(engineId: string, file: string): Promise<void> {
    const takers = [...this.entries.values()].filter((e) => e.adapter.vetProgram).map((e) => e.adapter.id);
    const adapter = this.entries.get(engineId)?.adapter;
    if (!adapter?.vetProgram) {
      throw new ApiError('invalid_executable', `engine_executables: "${engineId}" runs no program; engines that do: ${takers.join(', ')}.`);
    }
    try {
      await adapter.vetProgram(file);
    } catch (error) {
      if (!(error instanceof UntrustedProgram)) throw error;
      throw new ApiError('invalid_executable', `engine_executables.${engineId}: ${error.message}.`, { cause: error });
    }
  }

  /** The engine used when a request names neither voice nor engine. */
  defaultEngine(): EngineAdapter {
    const entry = [...this.entries.values()].find((e) => e.probe.available);
    if (!entry) throw new ApiError('engine_unavailable', 'No speech engine is available on this machine.');
    return entry.adapter;
  }

  /** Picks the voice of a request: its `voice`, else the default voice of its `engine`, else of the default engine. */
  resolve(request: { voice?: string | undefined; engine?: string | undefined }): ResolvedVoice {
    const named = request.voice === undefined ? undefined : splitVoiceId(request.voice);
    if (request.engine !== undefined && !this.entries.has(request.engine)) {
      throw new ApiError('unknown_engine', `Unknown engine "${request.engine}". GET /api/v1/tts/engines lists them.`);
    }
    if (request.voice !== undefined) {
      const engineId = named?.engine ?? request.engine;
      if (!engineId || !this.entries.has(engineId)) throw unknownVoice(request.voice);
      if (request.engine !== undefined && request.engine !== engineId) {
        throw new ApiError('unknown_voice', `Voice "${request.voice}" does not belong to engine "${request.engine}".`);
      }
      const localName = named?.name ?? request.voice;
      const probe = this.available(engineId);
      const voice = probe.voices.find((v) => v.id === `${engineId}:${localName}`);
      if (!voice) throw unknownVoice(request.voice);
      return resolved(this.entry(engineId).adapter, voice, localName);
    }
    const engineId = request.engine ?? this.defaultEngine().id;
    const probe = this.available(engineId);
    const voice = probe.voices.find((v) => v.id === probe.defaultVoice) ?? probe.voices[0]!;
    return resolved(this.entry(engineId).adapter, voice, splitVoiceId(voice.id)!.name);
  }

  private available(id: string): Extract<Probe, { available: true }> {
    const { probe, adapter } = this.entry(id);
    if (!probe.available) throw new ApiError('engine_unavailable', `Engine "${adapter.id}" is unavailable: ${probe.reason}`);
    return probe;
  }

  private entry(id: string): Entry {
    const entry = this.entries.get(id);
    if (!entry) throw new ApiError('engine_not_found', `Unknown engine "${id}".`);
    return entry;
  }
}

function resolved(adapter: EngineAdapter, voice: Voice, localName: string): ResolvedVoice {
  return {
    adapter,
    voice,
    localName,
    synthesize: (request, context) => synthesizeWithPolicy(adapter, { ...request, voice: localName }, context),
  };
}

function unknownVoice(voice: string) {
  return new ApiError('unknown_voice', `Unknown voice "${voice}". GET /api/v1/tts/engines/{id} lists the voices of an engine.`);
}

function summarize({ adapter, probe }: Entry): EngineSummary {
  const voices = probe.available ? probe.voices : [];
  return {
    id: adapter.id,
    name: adapter.name,
    available: probe.available,
    ...(probe.available ? {} : { reason: probe.reason }),
    voiceCount: voices.length,
    languages: [...new Set(voices.map((v) => v.language))].sort(),
    defaultVoice: probe.available ? probe.defaultVoice : null,
    capabilities: adapter.capabilities,
    kind: adapter.kind,
    options: optionSupport(adapter.capabilities),
    ...(probe.available && probe.warnings?.length ? { warnings: probe.warnings } : {}),
  };
}
