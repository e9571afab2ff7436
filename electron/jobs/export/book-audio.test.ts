/**
 * A stretch of the book read as a segment of its own (a ZIP's chapter, segments.ts) holds the
 * samples the whole book holds there: from the room tone, from the middle of a job, across a gap;
 * one job resampled to the book's rate.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WAV_HEADER_BYTES, encodeWav } from '../../audio/wav';
import { bookSamples, layOut, segmentSamples, sliceOf, type BookPart } from './book-audio';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'orator-book-audio-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function part(index: number, sampleRate: number, seconds: number): Promise<BookPart> {
  // a sawtooth: every sample tells where it is
  const samples = Int16Array.from({ length: sampleRate * seconds }, (_, i) => ((i * 7) % 20_000) + 1);
  const file = path.join(dir, `part-${index}.wav`);
  await writeFile(file, encodeWav({ samples, sampleRate }));
  const timings = { duration_s: seconds, sentences: [] };
  return {
    jobId: `j${index}`,
    title: `${index}`,
    titleGiven: true,
    source: { file, offset: WAV_HEADER_BYTES, sampleRate },
    samples: samples.length,
    timings,
  };
}

async function all(samples: AsyncIterable<Int16Array>): Promise<Int16Array> {
  const pieces: Int16Array[] = [];
  for await (const piece of samples) pieces.push(piece.slice());
  const out = new Int16Array(pieces.reduce((n, p) => n + p.length, 0));
  pieces.reduce((at, p) => (out.set(p, at), at + p.length), 0);
  return out;
}

it('reads a stretch of the book as the book holds it', async () => {
  const parts = [await part(0, 22_050, 3), await part(1, 16_000, 2), await part(2, 22_050, 2)];
  const layout = layOut(parts, 500, 500);
  const book = await all(bookSamples(parts, layout));
  expect(book.length).toBe(layout.totalSamples);
  const [a, b, c] = layout.starts as [number, number, number];
  const stretches: [number, number][] = [
    [0, a + 1000], // the room tone and the start of a job
    [a + 1000, b], // the middle of a job to the next one's start, across the gap
    [b, b + 5000], // a job's start to its middle
    [b + 5000, c], // a resampled job from its middle
    [c, layout.totalSamples], // to the end
  ];
  for (const [from, to] of stretches) {
    const slice = await all(segmentSamples(sliceOf(parts, layout, from, to)));
    expect(slice).toEqual(book.subarray(from, to));
  }
});
