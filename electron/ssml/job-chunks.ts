/**
 * SSML as a job's chunks: each segment chunked on its own (so no chunk mixes two voices or two
 * prosodies), its last chunk followed by the segment's pause, every chunk carrying its voice and
 * prosody. Sentence spans point into the markup as sent, so timings highlight the document the
 * client holds, and keep each sentence as the markup shows it (an element's content, never its
 * alias, say-as words or phonemes).
 */
import { ApiError } from '../contract';
import { chunkText } from '../jobs/chunker';
import { sentenceSpansOrNull, spokenChunks, type SentenceSpan } from '../jobs/sentence-spans';
import type { NewChunk } from '../jobs/rows';
import type { PlannedSegment } from './plan';
import { shownBetween } from './render';
import type { SpokenFor } from './synthesize';

export function ssmlJobChunks(plan: readonly PlannedSegment[], spokenFor: SpokenFor): NewChunk[] {
  const chunks = plan.flatMap((segment, s) => {
    const { voice, prosody, text, at } = segment;
    const written = chunkText(text, voice.voice.language);
    // spans in the segment's text, moved to the markup
    const inMarkup = sentenceSpansOrNull(text, written).map((spans) =>
      spans === null
        ? null
        : spans.map(([start, end, chunkStart, chunkEnd]): SentenceSpan => [at[start]!, at[end - 1]! + 1, chunkStart, chunkEnd]),
    );
    const shown = shownBetween(segment.shown);
    const chunks = spokenChunks(written, inMarkup, spokenFor(voice), (span) => shown(span[0], span[1]));
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
