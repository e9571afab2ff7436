import { describe, expect, it } from 'vitest';
import { unchanged, type Rewrite } from '../../lexicon/rewrite';
import { SENTENCE_PAUSE_MS } from '../chunker';
import type { ChunkTimingLayout } from '../rows';
import { sentenceRerender } from './sentences';

const RATE = 1000;

/** A chunk of a done job: its sentences at the given sample ranges in its `samples`. */
function chunk(text: string, ranges: [number, number][], samples: number, pauseMs = 250): ChunkTimingLayout {
  let at = 0;
  const sentences = text.split('|').map((s): [number, number, number, number] => {
    const span: [number, number, number, number] = [at, at + s.length, at, at + s.length];
    at += s.length + 1;
    return span;
  });
  return {
    idx: 0,
    text: text.replaceAll('|', ' '),
    pause_ms: pauseMs,
    samples,
    done: 1,
    base_offset: null,
    own: null,
    sentences,
    sentence_samples: ranges,
  };
}

const upper: Rewrite = (text) => ({ text: text.replace('Ann', 'ANN'), replacements: [] });

describe('sentenceRerender', () => {
  const layout = [
    chunk(
      'Ann ran.|Bo sat.|Cy hid.',
      [
        [10, 100],
        [120, 200],
        [230, 290],
      ],
      300,
      700,
    ),
    chunk('Ann won.', [[5, 80]], 90),
  ];

  it('cuts an unchanged job into pieces that join back into its audio, pauses where the chunks had them', () => {
    const { chunks, slices } = sentenceRerender(layout, unchanged, RATE)!;
    expect(chunks.map((c) => c.text)).toEqual(['Ann ran.', 'Bo sat.', 'Cy hid.', 'Ann won.']);
    expect(chunks.map((c) => c.pauseMs)).toEqual([0, 0, 700, 250]);
    // the second chunk starts after the first's 300 samples and its 700 ms pause
    expect(slices.map((s) => s && [s.offset, s.samples])).toEqual([
      [0, 120],
      [120, 110],
      [230, 70],
      [1000, 90],
    ]);
    expect(slices.map((s) => s!.sentenceSamples)).toEqual([[[10, 100]], [[0, 80]], [[0, 60]], [[5, 80]]]);
  });

  it('leaves the sentences said differently to be synthesized, a sentence pause after each', () => {
    const { chunks, slices } = sentenceRerender(layout, upper, RATE)!;
    expect(chunks.map((c) => c.text)).toEqual(['ANN ran.', 'Bo sat.', 'Cy hid.', 'ANN won.']);
    expect(slices.map((s) => s !== null)).toEqual([false, true, true, false]);
    expect(chunks.map((c) => c.pauseMs)).toEqual([SENTENCE_PAUSE_MS, 0, 700, 250]);
    // the written sentence is kept where the spoken one differs
    expect(chunks[0]!.sentences).toEqual([[0, 8, 0, 8, 'Ann ran.']]);
    expect(chunks[0]!.written).toBe('Ann ran.');
  });

  it('takes nothing without audio to cut, and is null without sentence timings', () => {
    expect(sentenceRerender(layout, unchanged, null)!.slices.every((s) => s === null)).toBe(true);
    const untimed = [{ ...layout[0]!, sentence_samples: null }];
    expect(sentenceRerender(untimed, unchanged, RATE)!.slices).toEqual([null, null, null]);
    expect(sentenceRerender([{ ...layout[0]!, sentences: null }], unchanged, RATE)).toBeNull();
  });
});
