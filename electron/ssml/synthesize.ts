/**
 * SSML spoken inline: the segments synthesized in order, each with its own voice and prosody,
 * brought to one sample rate (the highest among them: no voice loses its top) and joined with
 * the silence after each.
 */
import { resampleWhole } from '../audio/encode/resampler';
import type { Pcm } from '../audio/pcm';
import type { SynthesisContext } from '../engines/engine';
import type { ResolvedVoice } from '../engines/registry';
import type { Rewrite } from '../lexicon/rewrite';
import type { PlannedSegment } from './plan';

/** What a voice reads for a text: the pronunciation lexicon of that voice. */
export type SpokenFor = (voice: ResolvedVoice) => Rewrite;

export async function synthesizePlan(plan: readonly PlannedSegment[], spokenFor: SpokenFor, context: SynthesisContext): Promise<Pcm> {
  const parts: Pcm[] = [];
  for (const segment of plan) {
    const text = spokenFor(segment.voice)(segment.text).text;
    // a segment with nothing an engine can say (an empty phoneme) is only its pause
    parts.push(
      /\S/.test(text)
        ? await segment.voice.synthesize({ text, ...segment.prosody }, context)
        : { sampleRate: segment.voice.voice.sampleRate, samples: new Int16Array(0) },
    );
  }
  const sampleRate = Math.max(...parts.map((part) => part.sampleRate));
  const pieces: Int16Array[] = [];
  for (const [i, part] of parts.entries()) {
    pieces.push(await resampleWhole(part.samples, part.sampleRate, sampleRate));
    if (i < parts.length - 1) pieces.push(new Int16Array(Math.round((plan[i]!.pauseAfterMs / 1000) * sampleRate)));
  }
  const samples = new Int16Array(pieces.reduce((n, piece) => n + piece.length, 0));
  let offset = 0;
  for (const piece of pieces) {
    samples.set(piece, offset);
    offset += piece.length;
  }
  return { sampleRate, samples };
}
