/**
 * An M4B or MP3 made of segments encoded apart on the export threads (the built
 * dist/export-worker.mjs) against the same book in one pass, decoded by faad2 and sox (libmad);
 * and a second export after one chapter changed, which encodes that chapter only.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAV_HEADER_BYTES, encodeWav } from '../../audio/wav';
import { espeakWasm } from '../../engines/espeak-ng/wasm';
import { decodeIndependently } from '../../testing/decoders';
import type { BookPart } from './book-audio';
import { planBook, renderExport, type ExportSpec } from './render';
import type { SegmentedFormat } from './segments';
import { SegmentPool } from './segment-pool';
import { SegmentStore } from './segment-store';

const WORKER = path.resolve('dist/export-worker.mjs');
/** The export cache's default bound (export_cache_mb): these books' segments all stay. */
const KEEP_ALL = 1024 * 1024 * 1024;
const TEXTS = [
  'Chapter one. The lighthouse keeper counted the ships that passed in the night, and wrote each name in a book.',
  'Chapter two. Morning came grey over the harbour; the fishermen mended their nets and spoke of the storm.',
  'Chapter three. Nobody in the village remembered who had built the tower, only that it had always stood.',
];
const FIXED = TEXTS[1]!.replace('fishermen', 'fisherfolk');

let dir: string;
let pool: SegmentPool;

async function part(index: number, text: string): Promise<BookPart> {
  const speech = await espeakWasm.synthesize({ text, voice: 'en-us', rate: 1, pitch: 1, volume: 1 });
  const file = path.join(dir, `part-${index}.wav`);
  await writeFile(file, encodeWav(speech));
  const seconds = speech.samples.length / speech.sampleRate;
  return {
    jobId: `job-${index}`,
    title: `Chapter ${index + 1}`,
    titleGiven: true,
    source: { file, offset: WAV_HEADER_BYTES, sampleRate: speech.sampleRate },
    samples: speech.samples.length,
    timings: { duration_s: seconds, sentences: [{ start_s: 0, end_s: seconds, text_start: 0, text_end: text.length, text }] },
  };
}

const m4b: ExportSpec = {
  format: 'm4b',
  bitrateKbps: 64,
  title: 'Three Chapters',
  goal: { targetLufs: -18, ceilingDbtp: -3 },
  headMs: 500,
  tailMs: 500,
  chapters: 'jobs',
};

const specs: Record<SegmentedFormat, ExportSpec> = { m4b, mp3: { ...m4b, format: 'mp3' }, zip: { ...m4b, format: 'zip' } };
/**
 * Where the book's first sample lies in the decoded file, and how many decoded samples make one of
 * the book's: faad2 decodes the AAC priming frame and doubles rates this low; LAME delays by 576
 * samples and libmad by 529.
 */
const decodedOffset = { m4b: 1024, mp3: 576 + 529 };

async function exportBook(parts: BookPart[], name: string, store?: SegmentStore, spec = m4b) {
  const files = { audio: path.join(dir, `${name}.${spec.format}`), vtt: path.join(dir, `${name}.vtt`), srt: path.join(dir, `${name}.srt`) };
  const plan = planBook(parts, spec);
  const work = store ? { pool, store } : undefined;
  const loudness = await renderExport(
    parts,
    spec,
    plan,
    files,
    () => {},
    new AbortController().signal,
    async () => {},
    work,
  );
  return { plan, loudness, bytes: await readFile(files.audio) };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'orator-segments-'));
  pool = new SegmentPool(WORKER, 2);
});
afterAll(async () => {
  await pool.close();
  await rm(dir, { recursive: true, force: true });
});

const peak = (samples: Int16Array) => samples.reduce((max, s) => Math.max(max, Math.abs(s)), 0);

describe.each(['m4b', 'mp3'] as const)('an %s made of segments', (format) => {
  const spec = specs[format];
  it('decodes like the book encoded in one pass: as many samples, in step, and no click at the joins', async () => {
    const parts = await Promise.all(TEXTS.map((text, i) => part(i, text)));
    const store = await SegmentStore.open(path.join(dir, `data-${format}`), KEEP_ALL);
    const decoded = async (book: Awaited<ReturnType<typeof exportBook>>) => ({
      ...book,
      decoded: await decodeIndependently(format === 'm4b' ? 'm4a' : 'mp3', book.bytes),
    });
    const whole = await decoded(await exportBook(parts, `whole-${format}`, undefined, spec));
    const joined = await decoded(await exportBook(parts, `joined-${format}`, store, spec));
    expect(store.counts.encoded).toBe(3);

    // faad2 doubles rates this low on output
    const { layout } = joined.plan;
    const scale = Math.round(joined.decoded.samples.length / joined.decoded.seconds / layout.sampleRate);
    // an AAC frame, or what the issue calls an MP3 frame (two of MPEG-2's at this rate)
    const frame = (format === 'm4b' ? 1024 : 1152) * scale;
    const offset = decodedOffset[format];
    expect(scale).toBeGreaterThanOrEqual(1);
    // the same count, within a frame
    expect(Math.abs(joined.decoded.samples.length - whole.decoded.samples.length)).toBeLessThanOrEqual(frame);
    expect(joined.loudness.gainDb).toBeCloseTo(whole.loudness.gainDb, 0);
    expect(Math.abs(joined.loudness.integratedLufs - spec.goal.targetLufs)).toBeLessThan(0.5);

    // in step: the speech of each chapter lies where one pass put it (a frame's drift would be heard as an echo here)
    const a = whole.decoded.samples;
    const b = joined.decoded.samples;
    for (let i = 0; i < parts.length; i++) {
      const from = (layout.starts[i]! + offset) * scale;
      const to = from + layout.lengths[i]! * scale;
      let signal = 0;
      let error = 0;
      for (let n = from; n < to; n++) {
        signal += a[n]! ** 2;
        error += (a[n]! - b[n]!) ** 2;
      }
      // two encodes of the same samples differ by their quantisation noise only: well under the speech
      expect(10 * Math.log10(signal / error)).toBeGreaterThan(10);
    }
    // at each join, the silence between chapters stays silence (in the decoded file: after the delay)
    for (const cut of layout.cuts.slice(1, -1).map((c) => (c + offset) * scale)) {
      const around = (samples: Int16Array) => peak(samples.subarray(cut - 2 * frame, cut + 2 * frame));
      expect(around(b)).toBeLessThanOrEqual(Math.max(8, 2 * around(a)));
    }
  }, 120_000);
});

describe('a ZIP made of chapters encoded apart', () => {
  it('holds the files of one pass: each chapter as many samples, the same subtitles', async () => {
    const parts = await Promise.all(TEXTS.map((text, i) => part(i, text)));
    const store = await SegmentStore.open(path.join(dir, 'data-zip'), KEEP_ALL);
    const whole = unzipSync(new Uint8Array((await exportBook(parts, 'whole-zip', undefined, specs.zip)).bytes));
    const apart = unzipSync(new Uint8Array((await exportBook(parts, 'apart-zip', store, specs.zip)).bytes));
    expect(store.counts.encoded).toBe(3);
    expect(Object.keys(apart)).toEqual(Object.keys(whole));
    for (const name of Object.keys(whole)) {
      if (!name.endsWith('.mp3')) {
        expect(new TextDecoder().decode(apart[name])).toBe(new TextDecoder().decode(whole[name]));
        continue;
      }
      const one = await decodeIndependently('mp3', whole[name]!);
      const kept = await decodeIndependently('mp3', apart[name]!);
      expect(kept.samples.length).toBe(one.samples.length);
      expect(peak(kept.samples)).toBeGreaterThan(1000);
    }
  }, 120_000);
});

describe.each(['m4b', 'mp3', 'zip'] as const)('an %s exported again', (format) => {
  const spec = specs[format];
  it('encodes only the chapter that changed', async () => {
    const parts = await Promise.all(TEXTS.map((text, i) => part(i, text)));
    const store = await SegmentStore.open(path.join(dir, `again-${format}`), KEEP_ALL);
    const first = await exportBook(parts, `first-${format}`, store, spec);
    expect(store.counts).toEqual({ encoded: 3, reused: 0 });

    await exportBook(parts, `same-${format}`, store, spec);
    expect(store.counts).toEqual({ encoded: 3, reused: 3 });

    parts[1] = await part(1, FIXED);
    const fixed = await exportBook(parts, `fixed-${format}`, store, spec);
    expect(store.counts).toEqual({ encoded: 4, reused: 5 });
    // the book's gain is kept: the unchanged chapters' frames are still right
    expect(fixed.loudness.gainDb).toBe(first.loudness.gainDb);
    expect(Math.abs(fixed.loudness.integratedLufs - spec.goal.targetLufs)).toBeLessThan(0.5);

    // kept across a restart of the store
    const reopened = await SegmentStore.open(path.join(dir, `again-${format}`), KEEP_ALL);
    await exportBook(parts, `reopened-${format}`, reopened, spec);
    expect(reopened.counts).toEqual({ encoded: 0, reused: 3 });

    // the disk ledger takes the kept segments back when other work needs the disk, never mid-export
    reopened.hold();
    expect(await reopened.reclaim(1)).toBe(0);
    await reopened.trim();
    expect(await reopened.reclaim(1)).toBeGreaterThan(0);
    // a smaller bound (export_cache_mb) waits for the export being made to end, then applies
    reopened.hold();
    await reopened.bound(0);
    expect(reopened.size()).toBeGreaterThan(0);
    await reopened.trim();
    expect(reopened.size()).toBe(0);
  }, 120_000);
});
