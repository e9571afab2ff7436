/**
 * eSpeak NG built by Emscripten (npm, GPL-3.0): runs inside a worker thread. The package ships its
 * WebAssembly compiled to JavaScript (wasm2js), so V8 compiles and optimizes it as JavaScript.
 */
import createEspeak from '@echogarden/espeak-ng-emscripten';
import { closeSync, openSync, readSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
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

/** The part of Emscripten's file system used here: MEMFS files whose contents are views of one buffer. */
interface EmscriptenFs {
  open(path: unknown, ...rest: unknown[]): unknown;
  lookupPath(path: string): { node: { contents?: Uint8Array } };
}

let instance: Promise<EspeakWorker> | undefined;
/**
 * The voice eSpeak has loaded: choosing one reads its files and dictionary again (0.6–5 ms, a
 * tenth of a short sentence), which a book said a sentence a time would pay at every sentence.
 */
let selected: string | undefined;
/** Orator's voice names (the first language of each voice) → eSpeak's voice identifiers. */
let identifiers: Map<string, string> | undefined;

function espeak(): Promise<EspeakWorker> {
  instance ??= createWithLazyData().then((module) => new module.eSpeakNGWorker());
  return instance;
}

/**
 * The package's data file (24 MB) holds every language's dictionary: 23.3 MB of it, 8.5 MB for
 * Russian alone, where a thread speaks one or a few languages (English: 167 kB). Emscripten would
 * read it whole into each thread that loads the engine. Instead its loader gets an empty buffer of
 * the file's size, which the system backs with memory only where it is written, and each file of
 * it is read in from disk the first time eSpeak opens it.
 */
async function createWithLazyData() {
  const dataFile = fileURLToPath(import.meta.resolve('@echogarden/espeak-ng-emscripten/espeak-ng.data'));
  let data: ArrayBuffer | undefined;
  const module = (await createEspeak({
    getPreloadedPackage: (_name: string, size: number) => (data = new ArrayBuffer(size)),
  })) as { FS: EmscriptenFs; eSpeakNGWorker: new () => EspeakWorker };
  const readIn = new WeakSet<Uint8Array>();
  const open = module.FS.open;
  // eSpeak's fopen reaches FS.open: a file's bytes are in place before its first read. The data
  // file is opened for each read: a descriptor kept would outlive the thread (they are per process).
  module.FS.open = (path, ...rest) => {
    if (typeof path === 'string') {
      const contents = fileContents(module.FS, path);
      if (contents && contents.buffer === data && !readIn.has(contents)) {
        readRange(dataFile, contents);
        readIn.add(contents);
      }
    }
    return open(path, ...rest);
  };
  return module;
}

/** Fills `view` with the bytes of `file` at the view's own offset in its buffer. */
function readRange(file: string, view: Uint8Array): void {
  const fd = openSync(file, 'r');
  try {
    readSync(fd, view, 0, view.length, view.byteOffset);
  } finally {
    closeSync(fd);
  }
}

/** A file's contents, or undefined for a path that is no file (FS.open then says why). */
function fileContents(fs: EmscriptenFs, path: string): Uint8Array | undefined {
  try {
    return fs.lookupPath(path).node.contents;
  } catch {
    return undefined;
  }
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
    if (!identifier) throw new Error(`eSpeak NG has no voice "${request.voice}"`);
    if (identifier !== selected) {
      selected = undefined;
      if (worker.set_voice(identifier) !== 0) throw new Error(`eSpeak NG has no voice "${request.voice}"`);
      selected = identifier;
    }
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
