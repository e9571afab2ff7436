import type { Capabilities } from '../contract';
import type { EngineAdapter, Probe } from './engine';
import type { SynthesisPool } from './worker-pool';

export interface InThreadSpec {
  /** Also the key of the engine in worker.ts. */
  id: string;
  name: string;
  capabilities: Capabilities;
  /** Local name of the default voice; the first voice when it is missing. */
  defaultVoice: string;
}

/** An embedded (WASM) engine: probed and run on the worker-thread pool, see worker.ts. */
export function inThreadAdapter(pool: SynthesisPool, spec: InThreadSpec): EngineAdapter {
  const { id } = spec;
  return {
    id,
    name: spec.name,
    kind: 'embedded',
    capabilities: spec.capabilities,
    async probe(): Promise<Probe> {
      try {
        const voices = await pool.run({ kind: 'voices', engine: id }, 'interactive');
        if (voices.length === 0) return { available: false, reason: `${spec.name} has no voices.` };
        const preferred = voices.find((v) => v.id === `${id}:${spec.defaultVoice}`) ?? voices[0]!;
        return { available: true, voices, defaultVoice: preferred.id };
      } catch (error) {
        return { available: false, reason: `${spec.name} cannot run: ${(error as Error).message}` };
      }
    },
    synthesize(request, { lane, signal }) {
      return pool.run({ kind: 'synthesize', engine: id, request }, lane, signal);
    },
  };
}
