import type { EngineAdapter, Probe } from '../engine';
import type { SynthesisPool } from '../worker-pool';

export const ESPEAK_DEFAULT_VOICE = 'en-us';

/** The embedded default engine: eSpeak NG as WebAssembly, on the worker-thread pool. */
export function espeakWasmAdapter(pool: SynthesisPool): EngineAdapter {
  const id = 'espeak-ng';
  return {
    id,
    name: 'eSpeak NG (embedded)',
    capabilities: { rate: true, pitch: true, volume: true },
    async probe(): Promise<Probe> {
      try {
        const voices = await pool.run({ kind: 'voices', engine: id }, 'interactive');
        return { available: true, voices, defaultVoice: `${id}:${ESPEAK_DEFAULT_VOICE}` };
      } catch (error) {
        return { available: false, reason: `The embedded eSpeak NG failed to load: ${(error as Error).message}` };
      }
    },
    synthesize(request, { lane, signal }) {
      return pool.run({ kind: 'synthesize', engine: id, request }, lane, signal);
    },
  };
}
