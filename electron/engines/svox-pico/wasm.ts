/** SVOX Pico compiled to WebAssembly (npm @echogarden/svoxpico-wasm, Apache-2.0): runs inside a worker thread. */
import createPico from '@echogarden/svoxpico-wasm';
import { readFile } from 'node:fs/promises';
import type { SynthesisRequest } from '../engine';
import type { Pcm } from '../../audio/pcm';

import type { EmbeddedEngine } from '../worker-protocol';
import { findPicoFiles, PICO_SAMPLE_RATE, picoText, picoVoices } from './voices';

interface PicoModule {
  HEAPU8: Uint8Array;
  FS: { writeFile(path: string, data: Uint8Array): void };
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  _pico_initialize(memory: number, size: number, outSystem: number): number;
  _pico_terminate(inoutSystem: number): number;
  _pico_getSystemStatusMessage(system: number, code: number, outMessage: number): number;
  _pico_loadResource(system: number, fileName: number, outResource: number): number;
  _pico_getResourceName(system: number, resource: number, outName: number): number;
  _pico_createVoiceDefinition(system: number, voiceName: number): number;
  _pico_addResourceToVoiceDefinition(system: number, voiceName: number, resourceName: number): number;
  _pico_newEngine(system: number, voiceName: number, outEngine: number): number;
  _pico_resetEngine(engine: number, mode: number): number;
  _pico_putTextUtf8(engine: number, text: number, size: number, outBytesPut: number): number;
  _pico_getData(engine: number, buffer: number, size: number, outBytes: number, outDataType: number): number;
}

/** pico2wave's working memory for one system. */
const PICO_MEMORY = 2_500_000;
const STEP_IDLE = 200;
const STEP_BUSY = 201;
const RESET_SOFT = 0x10;
/** pico_putTextUtf8 and pico_getData take 16-bit sizes. */
const MAX_PUT = 32_767;
const OUT_BUFFER = 16_384;

let modulePromise: Promise<PicoModule> | undefined;
/** One loaded engine per voice, kept for the life of the worker thread (loading takes ≈100 ms). */
const engines = new Map<string, Promise<number>>();

function pico(): Promise<PicoModule> {
  modulePromise ??= createPico() as Promise<PicoModule>;
  return modulePromise;
}

/** Bytes in the module's heap, read afresh: a memory growth replaces HEAPU8. */
function cString(m: PicoModule, text: string): number {
  const bytes = new TextEncoder().encode(text + '\0');
  const at = m._malloc(bytes.length);
  m.HEAPU8.set(bytes, at);
  return at;
}

function readCString(m: PicoModule, at: number): string {
  const end = m.HEAPU8.indexOf(0, at);
  return new TextDecoder().decode(m.HEAPU8.subarray(at, end));
}

function int32(m: PicoModule, at: number): number {
  return new DataView(m.HEAPU8.buffer).getInt32(at, true);
}

function int16(m: PicoModule, at: number): number {
  return new DataView(m.HEAPU8.buffer).getInt16(at, true);
}

async function loadEngine(voice: string): Promise<number> {
  const files = findPicoFiles(voice);
  if (!files) throw new Error(`no language files for SVOX Pico voice "${voice}"`);
  const m = await pico();
  // Blocks that live as long as the engine: never freed, one set per voice and thread.
  const memory = m._malloc(PICO_MEMORY);
  const slots = m._malloc(16);
  const check = (code: number, what: string) => {
    if (code === 0) return;
    const message = m._malloc(200);
    m._pico_getSystemStatusMessage(int32(m, slots), code, message);
    throw new Error(`SVOX Pico could not ${what}: ${readCString(m, message)} (${code})`);
  };
  check(m._pico_initialize(memory, PICO_MEMORY, slots), 'start');
  const system = int32(m, slots);
  const voiceName = cString(m, voice);
  check(m._pico_createVoiceDefinition(system, voiceName), 'define the voice');
  for (const file of [files.ta, files.sg]) {
    const virtual = '/' + file.split('/').pop()!;
    m.FS.writeFile(virtual, await readFile(file));
    check(m._pico_loadResource(system, cString(m, virtual), slots + 4), `load ${file}`);
    const name = m._malloc(32);
    check(m._pico_getResourceName(system, int32(m, slots + 4), name), 'name a resource');
    check(m._pico_addResourceToVoiceDefinition(system, voiceName, name), 'add a resource');
  }
  check(m._pico_newEngine(system, voiceName, slots + 8), 'create its engine');
  return int32(m, slots + 8);
}

function engineFor(voice: string): Promise<number> {
  let engine = engines.get(voice);
  if (!engine) {
    engine = loadEngine(voice);
    engine.catch(() => engines.delete(voice));
    engines.set(voice, engine);
  }
  return engine;
}

export const picoWasm: EmbeddedEngine = {
  async voices() {
    await pico();
    return picoVoices('svox-pico', (voice) => findPicoFiles(voice) !== null);
  },

  async synthesize(request: SynthesisRequest): Promise<Pcm> {
    const engine = await engineFor(request.voice);
    const m = await pico();
    const text = new TextEncoder().encode(picoText(request) + '\0');
    const textAt = m._malloc(text.length);
    const out = m._malloc(OUT_BUFFER);
    const counts = m._malloc(8);
    const parts: Uint8Array[] = [];
    try {
      m.HEAPU8.set(text, textAt);
      for (let done = 0; done < text.length;) {
        const code = m._pico_putTextUtf8(engine, textAt + done, Math.min(MAX_PUT, text.length - done), counts);
        if (code !== 0) throw new Error(`SVOX Pico refused the text (${code})`);
        done += int16(m, counts);
        // Drain the audio of what was put before putting more.
        for (let status = STEP_BUSY; status === STEP_BUSY;) {
          status = m._pico_getData(engine, out, OUT_BUFFER, counts + 4, counts + 6);
          if (status !== STEP_BUSY && status !== STEP_IDLE) throw new Error(`SVOX Pico failed while synthesizing (${status})`);
          const bytes = int16(m, counts + 4);
          if (bytes > 0) parts.push(m.HEAPU8.slice(out, out + bytes));
        }
      }
    } catch (error) {
      m._pico_resetEngine(engine, RESET_SOFT);
      throw error;
    } finally {
      m._free(textAt);
      m._free(out);
      m._free(counts);
    }
    const bytes = Buffer.concat(parts);
    const samples = new Int16Array(bytes.length >> 1);
    Buffer.from(samples.buffer).set(bytes.subarray(0, samples.length * 2));
    return { sampleRate: PICO_SAMPLE_RATE, samples };
  },
};
