import { embeddedAdapter, type EmbeddedOptions } from '../embedded';
import type { EmbeddedPool } from '../worker-pool';

/** GnuSpeech as WebAssembly on the worker-thread pool: English, five vocal tracts, no system install. */
export function gnuspeechAdapter(pool: EmbeddedPool, options: EmbeddedOptions = {}) {
  return embeddedAdapter(
    pool,
    {
      id: 'gnuspeech',
      package: '@echogarden/gnuspeech-wasm',
      name: 'GnuSpeech (embedded)',
      capabilities: { rate: true, pitch: false, volume: false },
      defaultVoice: 'male',
    },
    options,
  );
}
