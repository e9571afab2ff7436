/** GnuSpeech, an articulatory synthesizer, compiled to WebAssembly (npm, GPL-3.0): runs inside a worker thread. */
import { synthesize } from '@echogarden/gnuspeech-wasm';
import type { Voice } from '../../contract';
import { decodeWav } from '../../audio/wav';
import type { SynthesisRequest } from '../engine';
import type { Pcm } from '../../audio/pcm';

import type { EmbeddedEngine } from '../worker-protocol';

/** The vocal tracts of its English model; the children's and the baby's have no gender. */
const VOICES = [
  { local: 'male', name: 'Male', gender: 'male' },
  { local: 'female', name: 'Female', gender: 'female' },
  { local: 'large_child', name: 'Large child' },
  { local: 'small_child', name: 'Small child' },
  { local: 'baby', name: 'Baby' },
] as const;
const SAMPLE_RATE = 44100;

export const gnuspeechWasm: EmbeddedEngine = {
  async voices(): Promise<Voice[]> {
    return VOICES.map((v) => ({
      id: `gnuspeech:${v.local}`,
      name: v.name,
      language: 'en-US',
      ...('gender' in v ? { gender: v.gender } : {}),
      sampleRate: SAMPLE_RATE,
      quality: 'low',
    }));
  },

  async synthesize(request: SynthesisRequest): Promise<Pcm> {
    const voice = VOICES.find((v) => v.local === request.voice);
    if (!voice) throw new Error(`GnuSpeech has no voice "${request.voice}"`);
    try {
      // tempo is GnuSpeech's own speaking-rate multiplier.
      const { audioData } = await synthesize(request.text, { voice: voice.local, tempo: request.rate });
      return decodeWav(Buffer.from(audioData.buffer, audioData.byteOffset, audioData.byteLength));
    } catch (error) {
      // Its C++ core throws a bare number, e.g. on text without a letter or digit ("?!", "* * *"):
      // there it has nothing to say, which is silence; elsewhere a failure with a message.
      if (typeof error !== 'number') throw error;
      if (!/[\p{L}\p{N}]/u.test(request.text)) return { sampleRate: SAMPLE_RATE, samples: new Int16Array(0) };
      throw new Error('GnuSpeech failed on this text.', { cause: error });
    }
  },
};
