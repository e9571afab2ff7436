import { ApiError, type Capabilities } from '../contract';
import { TOOL_TIMEOUT_MS } from './cli';
import type { EngineAdapter, Probe } from './engine';
import { TaskTimeout, type SynthesisPool } from './worker-pool';

export interface InThreadSpec {
  /** Also the key of the engine in worker.ts. */
  id: string;
  name: string;
  capabilities: Capabilities;
  /** Local name of the default voice; the first voice when it is missing. */
  defaultVoice: string;
}

/** Settings of an embedded engine that tests and the configuration may override. */
export interface InThreadOptions {
  /**
   * A task (voice listing or synthesis) still running after this long has its worker thread
   * stopped and fails with engine_timeout; counted from when it gets a thread. Default TOOL_TIMEOUT_MS.
   */
  timeoutMs?: number;
}

/** An embedded (WASM) engine: probed and run on the worker-thread pool, see worker.ts. */
export function inThreadAdapter(pool: SynthesisPool, spec: InThreadSpec, options: InThreadOptions = {}): EngineAdapter {
  const { id } = spec;
  const timeoutMs = options.timeoutMs ?? TOOL_TIMEOUT_MS;
  /** A timeout becomes engine_timeout; an abort by the caller stays the caller's abort. */
  const timedOut = (error: unknown): never => {
    if (error instanceof TaskTimeout) {
      throw new ApiError('engine_timeout', `${spec.name} did not finish within ${timeoutMs / 1000} s and was stopped.`);
    }
    throw error;
  };
  return {
    id,
    name: spec.name,
    kind: 'embedded',
    capabilities: spec.capabilities,
    async probe(): Promise<Probe> {
      try {
        const voices = await pool.run({ kind: 'voices', engine: id }, 'interactive', { timeoutMs }).catch(timedOut);
        if (voices.length === 0) return { available: false, reason: `${spec.name} has no voices.` };
        const preferred = voices.find((v) => v.id === `${id}:${spec.defaultVoice}`) ?? voices[0]!;
        return { available: true, voices, defaultVoice: preferred.id };
      } catch (error) {
        return { available: false, reason: `${spec.name} cannot run: ${(error as Error).message}` };
      }
    },
    synthesize(request, { lane, signal }) {
      return pool.run({ kind: 'synthesize', engine: id, request }, lane, { signal, timeoutMs }).catch(timedOut);
    },
  };
}
