import { espeakWasmAdapter } from './espeak-ng/adapter';
import { espeakSystemAdapter } from './espeak-ng-system/adapter';
import type { EngineAdapter } from './engine';
import type { SynthesisPool } from './worker-pool';

/** Every engine Orator knows, in order of preference: the first available one is the default. */
export function allEngines(pool: SynthesisPool): EngineAdapter[] {
  return [espeakWasmAdapter(pool), espeakSystemAdapter()];
}
