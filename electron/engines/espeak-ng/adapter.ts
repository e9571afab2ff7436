import { embeddedAdapter, type EmbeddedOptions } from '../embedded';
import type { EmbeddedPool } from '../worker-pool';

export const ESPEAK_DEFAULT_VOICE = 'en-us';

/** The embedded default engine: eSpeak NG built by Emscripten (see wasm.ts), on the worker-thread pool. */
export function espeakWasmAdapter(pool: EmbeddedPool, options: EmbeddedOptions = {}) {
  return embeddedAdapter(
    pool,
    {
      id: 'espeak-ng',
      package: '@echogarden/espeak-ng-emscripten',
      name: 'eSpeak NG (embedded)',
      capabilities: { rate: true, pitch: true, volume: true },
      phonemeAlphabet: 'x-espeak',
      defaultVoice: ESPEAK_DEFAULT_VOICE,
    },
    options,
  );
}
