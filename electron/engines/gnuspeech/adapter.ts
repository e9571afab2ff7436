import { inThreadAdapter, type InThreadOptions } from '../pooled';
import type { SynthesisPool } from '../worker-pool';

/** GnuSpeech as WebAssembly on the worker-thread pool: English, five vocal tracts, no system install. */
export function gnuspeechAdapter(pool: SynthesisPool, options: InThreadOptions = {}) {
  return inThreadAdapter(
    pool,
    {
      id: 'gnuspeech',
      name: 'GnuSpeech (embedded)',
      capabilities: { rate: true, pitch: false, volume: false },
      defaultVoice: 'male',
    },
    options,
  );
}
