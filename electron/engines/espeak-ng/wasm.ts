/** eSpeak NG compiled to WebAssembly (npm, GPL-3.0): runs inside a worker thread. */
import createEspeak from '@echogarden/espeak-ng-emscripten';
import type { Voice } from '../../contract';
import type { EmbeddedEngine } from '../worker-protocol';
import type { SynthesisRequest } from '../engine';
import type { Pcm } from '../../audio/pcm';

import { toBcp47 } from '../engine';
import { espeakProsody } from './prosody';

interface WasmVoice {
  name: string;
  identifier: string;
  languages: { priority: number; name: string }[];
}
interface EspeakWorker {
  list_voices(): WasmVoice[];
  set_voice(name: string): number;
  set_rate(wpm: number): number;
  set_pitch(pitch: number): number;
  set_volume(amplitude: number): number;
  get_samplerate(): number;
  synthesize(text: string, onAudio: (audio: Int16Array | undefined, events: unknown[]) => number): void;
}

let instance: Promise<EspeakWorker> | undefined;
/** Orator's voice names (the first language of each voice) → eSpeak's voice identifiers. */
let identifiers: Map<string, string> | undefined;

function espeak(): Promise<EspeakWorker> {
  instance ??= createEspeak().then((module) => new (module as { eSpeakNGWorker: new () => EspeakWorker }).eSpeakNGWorker());
  return instance;
}

function voiceIdentifiers(worker: EspeakWorker): Map<string, string> {
  if (!identifiers) {
    identifiers = new Map();
    for (const voice of worker.list_voices()) {
      const tag = voice.languages[0]?.name;
      if (tag && !identifiers.has(tag)) identifiers.set(tag, voice.identifier);
    }
  }
  return identifiers;
}

export const espeakWasm: EmbeddedEngine = {
  async voices(): Promise<Voice[]> {
    const worker = await espeak();
    const sampleRate = worker.get_samplerate();
    const names = new Map(worker.list_voices().map((v) => [v.identifier, v.name]));
    return [...voiceIdentifiers(worker)].map(([tag, identifier]) => ({
      id: `espeak-ng:${tag}`,
      name: names.get(identifier) ?? tag,
      language: toBcp47(tag),
      sampleRate,
      quality: 'low' as const,
    }));
  },

  async synthesize(request: SynthesisRequest): Promise<Pcm> {
    const worker = await espeak();
    // By identifier: a few voices ("fr-fr", "en-gb") cannot be selected by their language name.
    const identifier = voiceIdentifiers(worker).get(request.voice);
    if (!identifier || worker.set_voice(identifier) !== 0) throw new Error(`eSpeak NG has no voice "${request.voice}"`);
    const prosody = espeakProsody(request);
    worker.set_rate(prosody.wpm);
    worker.set_pitch(prosody.pitch);
    worker.set_volume(prosody.amplitude);
    const parts: Int16Array[] = [];
    let length = 0;
    worker.synthesize(request.text, (audio) => {
      if (audio?.length) {
        parts.push(audio);
        length += audio.length;
      }
      return 0; // 0 = go on
    });
    const samples = new Int16Array(length);
    let offset = 0;
    for (const part of parts) {
      samples.set(part, offset);
      offset += part.length;
    }
    return { sampleRate: worker.get_samplerate(), samples };
  },
};
