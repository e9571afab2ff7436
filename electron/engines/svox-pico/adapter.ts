import { embeddedAdapter, type EmbeddedOptions } from '../embedded';
import type { EmbeddedPool } from '../worker-pool';
import { PICO_DEFAULT_VOICE, picoLangDirs } from './voices';

/** SVOX Pico as WebAssembly on the worker-thread pool; its non-free language files come from the system. */
export function picoWasmAdapter(pool: EmbeddedPool, options: EmbeddedOptions = {}) {
  return embeddedAdapter(
    pool,
    {
      id: 'svox-pico',
      package: '@echogarden/svoxpico-wasm',
      name: 'SVOX Pico (embedded)',
      capabilities: { rate: true, pitch: true, volume: false },
      defaultVoice: PICO_DEFAULT_VOICE,
      voiceFiles: () => picoLangDirs(),
    },
    options,
  );
}
