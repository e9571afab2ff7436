/**
 * An SSML request as what to synthesize: each segment with its resolved voice, its prosody, its
 * text as that voice reads it (say-as, phonemes) and the silence after it. Voices are resolved
 * once each; an unknown one is the registry's 422 unknown_voice.
 */
import type { Prosody, ResolvedVoice } from '../engines/registry';
import { parseSsml } from './parse';
import { renderSegment, type PlacedText } from './render';

export interface PlannedSegment {
  voice: ResolvedVoice;
  prosody: Prosody;
  /** As the voice reads it, before the pronunciation lexicon. */
  text: string;
  /** The markup offset (code points) of each code point of `text`. */
  at: number[];
  /** As written, for people (say-as and sub as their content, phonemes as the word). */
  shown: PlacedText;
  pauseAfterMs: number;
}

/** `requestVoice` speaks outside `<voice>`; `base` is the request's rate, pitch and volume. */
export function planSsml(
  markup: string,
  requestVoice: ResolvedVoice,
  base: Prosody,
  resolve: (voiceId: string) => ResolvedVoice,
): PlannedSegment[] {
  const voices = new Map<string, ResolvedVoice>();
  const voiceOf = (id: string | undefined) => {
    if (id === undefined || id === requestVoice.voice.id) return requestVoice;
    let voice = voices.get(id);
    if (!voice) voices.set(id, (voice = resolve(id)));
    return voice;
  };
  return parseSsml(markup, base).map((segment) => {
    const voice = voiceOf(segment.voice);
    const rendered = renderSegment(segment, { language: voice.voice.language, phonemeAlphabet: voice.adapter.phonemeAlphabet });
    return { voice, prosody: segment.prosody, ...rendered, pauseAfterMs: segment.pauseAfterMs };
  });
}

/** The plain text of a plan as written, for a job's title. */
export function planText(plan: readonly PlannedSegment[]): string {
  return plan.map((segment) => segment.shown.text.trim()).join(' ');
}

/** SSML on the OpenAI route: an input that starts, after whitespace (and an XML declaration), with a <speak> tag. */
export const looksLikeSsml = (text: string) => /^\s*(<\?xml[^>]*\?>\s*)?<speak[\s>/]/.test(text);
