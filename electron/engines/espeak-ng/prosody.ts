import type { SynthesisRequest } from '../engine';

/** Orator's multipliers (1 = normal) in eSpeak NG's units, shared by the WASM build and the CLI. */
export function espeakProsody(request: Pick<SynthesisRequest, 'rate' | 'pitch' | 'volume'>) {
  return {
    wpm: Math.round(175 * request.rate),
    pitch: Math.round(Math.min(100, Math.max(0, 50 * request.pitch))),
    amplitude: Math.round(Math.min(200, Math.max(0, 100 * request.volume))),
  };
}
