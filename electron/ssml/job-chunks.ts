/**
 * SSML as a job's chunks: each segment chunked on its own (so no chunk mixes two voices or two
 * prosodies), its last chunk followed by the segment's pause, every chunk carrying its voice and
 * prosody. Sentence spans point into the markup as sent, so timings highlight the document the
 * client holds.
 */
import { ApiError } from '../contract';
import { chunkText } from '../jobs/chunker';
import { sentenceSpansOrNull, spokenChunks, type SentenceSpan } from '../jobs/sentence-spans';
import type { NewChunk } from '../jobs/store';
import type { PlannedSegment } from './plan';
import type { SpokenFor } from './synthesize';

export function ssmlJobChunks(plan: readonly PlannedSegment[], spokenFor: SpokenFor): NewChunk[] {
  const chunks = plan.flatMap((segment, s) => {
    const { voice, prosody, text, at } = segment;
    const language = voice.voice.language;
    const written = chunkText(text, language);
    // spans in the segment's text, moved to the markup
    const inMarkup = sentenceSpansOrNull(text, written, language).map((spans) =>
      spans === null
        ? null
        : spans.map(([start, end, chunkStart, chunkEnd]): SentenceSpan => [at[start]!, at[end - 1]! + 1, chunkStart, chunkEnd]),
    );
    const chunks = spokenChunks(written, inMarkup, spokenFor(voice));
    const own = { voice: voice.voice.id, local_voice: voice.localName, ...prosody };
    return chunks.map((chunk, i): NewChunk => ({
      ...chunk,
      pauseMs: i === chunks.length - 1 && s < plan.length - 1 ? segment.pauseAfterMs : chunk.pauseMs,
      own,
    }));
  });
  // only <phoneme> elements without text, on engines that read no phonemes: a job of no chunks would never end
  if (chunks.length === 0) {
    const message =
      'Invalid SSML at line 1, column 1: Nothing in it can be said by its voices (a <phoneme> without text where the engine reads no phonemes).';
    throw new ApiError('invalid_ssml', message, { position: { line: 1, column: 1 } });
  }
  return chunks;
}
