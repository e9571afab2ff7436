import type { Pcm } from '../audio/pcm';
import { splitAtPauses } from '../audio/pauses';
import type { InlineSentence } from '../contract';
import { chunkText } from '../jobs/chunker';
import type { Rewrite } from '../lexicon/rewrite';
import { sentenceSpansOrNull, sentenceWeight, spokenChunks } from '../jobs/sentence-spans';

const seconds = (samples: number, sampleRate: number) => Math.round((samples / sampleRate) * 1000) / 1000;

/**
 * Where each sentence of an inline answer is in its text and its audio. The engine spoke the text
 * in one go, so its paragraphs are found as a job's chunker finds them (one piece per paragraph,
 * never cut), their sentences placed in the text as for a job, and the audio split among all the
 * sentences at the pauses (audio/pauses.ts). Null when the sentences cannot be placed.
 */
export function inlineTimings(text: string, language: string, pcm: Pcm, spoken: Rewrite): InlineSentence[] | null {
  const paragraphs = chunkText(text, language, Number.MAX_SAFE_INTEGER);
  const spans = sentenceSpansOrNull(text, paragraphs);
  if (spans.some((s) => s === null)) return null;
  const chunks = spokenChunks(paragraphs, spans, spoken);
  const sentences = chunks.flatMap((chunk, p) =>
    chunk.sentences!.map((span, k) => ({
      span,
      weight: sentenceWeight(chunk.text, span),
      paragraphEnd: k === chunk.sentences!.length - 1 && p < chunks.length - 1,
    })),
  );
  const ranges = splitAtPauses(
    pcm.samples,
    pcm.sampleRate,
    sentences.map((s) => s.weight),
  );
  return sentences.map(({ span, paragraphEnd }, i): InlineSentence => {
    const [start, end] = ranges[i]!;
    const timing: InlineSentence = [seconds(start, pcm.sampleRate), seconds(end, pcm.sampleRate), span[0], span[1]];
    return paragraphEnd ? [...timing, 1] : timing;
  });
}
