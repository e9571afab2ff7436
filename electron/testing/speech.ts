/** Test support: real speech from the embedded eSpeak NG, in this thread, at plain prosody unless told. */
import type { Pcm } from '../audio/pcm';
import type { SynthesisRequest } from '../engines/engine';
import { espeakWasm } from '../engines/espeak-ng/wasm';

export function speech(text: string, options: Partial<Omit<SynthesisRequest, 'text'>> = {}): Promise<Pcm> {
  return espeakWasm.synthesize({ text, voice: 'en-us', rate: 1, pitch: 1, volume: 1, ...options });
}
