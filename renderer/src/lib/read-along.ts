import type { SentenceTiming } from '../api/contract';

/**
 * The sentence being spoken at `time`: the last one that has started (through the pause after it,
 * so the highlight does not flicker off between sentences); -1 before the first.
 */
export function sentenceAt(sentences: readonly Pick<SentenceTiming, 'start_s'>[], time: number): number {
  let low = 0;
  let high = sentences.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (sentences[middle]!.start_s <= time) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** Sentences grouped into the paragraphs they came from, each with its index in the job. */
export function paragraphsOf(sentences: readonly SentenceTiming[]): { index: number; sentence: SentenceTiming }[][] {
  const paragraphs: { index: number; sentence: SentenceTiming }[][] = [[]];
  sentences.forEach((sentence, index) => {
    paragraphs.at(-1)!.push({ index, sentence });
    if (sentence.paragraph_end) paragraphs.push([]);
  });
  return paragraphs.filter((p) => p.length > 0);
}
