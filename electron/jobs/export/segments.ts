/**
 * An M4B or MP3 made of segments, one per job (a project's chapter), or a ZIP of its chapters, each
 * measured and encoded on its own on the export threads (segment-pool.ts), all cores at once, and
 * kept (segment-store.ts): the next export of the book encodes only the segments whose audio
 * changed, and joins the rest as they were.
 *
 * Why the frames join cleanly: the book is cut in the middle of the 1.5 s of silence between two
 * jobs, on a multiple of the AAC frame (book-audio.ts, layOut). AAC frames decode on their own but
 * for the overlap of each with the next (the MDCT's 2,048-sample window); an encoder that starts on
 * silence needs no pre-roll, and one that ends on silence has flushed into silence, so the frames
 * either side of a cut overlap as in one pass. Each segment's encode starts with the encoder's
 * priming frame (1,024 samples): the first segment's stays (the M4B's edit list skips it), the
 * others' is dropped. A segment of n frames' samples gives n + 1 frames; the joined book has as
 * many as one pass over it would. The limiter starts afresh at each cut, in silence, where it is at
 * rest in one pass too.
 *
 * MP3: every LAME stream starts with an empty bit reservoir (its first frame's main_data_begin is
 * 0), so streams encoded apart join into a valid one. LAME writes ceil((n + 1,152) / frame) frames
 * for n samples (its 576-sample delay, then a flush), with no Xing/LAME tag, as in one pass. The
 * cuts fall on 1,152 samples (a frame of MPEG-1, two of MPEG-2), and each segment but the last
 * leaves out the last 1,152 samples of its trailing silence: its frames then span its cut to the
 * next, and every sample after them keeps its place in the book as in one pass, the delay included.
 */
import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dependencies } from '../../../package.json';
import { gatedLoudness, type LoudnessReport } from '../../audio/loudness';
import { encodedSampleRate } from '../../audio/encode/formats';
import { estimateExportBytes, type ExportFormat } from '../../contract';
import { segmentOf, sliceOf, type BookLayout, type BookPart, type Segment } from './book-audio';
import { gainFor, keptGain, type LoudnessGoal } from './normalise';
import type { SegmentPool } from './segment-pool';
import type { EntryLabel, FramesFormat, SegmentStore } from './segment-store';
import type { SegmentResult, SegmentTask } from './segment-worker';
import { writeM4b, writeMp3, type SinkOptions } from './sinks';
import { writeZip } from './zip-sink';

/** What a segmented export needs besides the book: the threads, and the kept segments. */
export interface SegmentWork {
  pool: SegmentPool;
  store: SegmentStore;
}

export interface SegmentedLoudness {
  measured: LoudnessReport;
  gainDb: number;
  limited: boolean;
  integratedLufs: number;
  truePeakDbtp: number;
}

const AAC_ENCODER = `@mediabunny/aac-encoder@${dependencies['@mediabunny/aac-encoder']}`;
const MP3_ENCODER = `wasm-media-encoders@${dependencies['wasm-media-encoders']}`;
/** What LAME adds to a stream's samples before it is a whole number of frames (above). */
const LAME_EXTRA_SAMPLES = 1152;
/**
 * What the cuts of a book fall on: an AAC frame, an MPEG-1 frame (two MPEG-2 frames); a ZIP's
 * chapters are files of their own, cut anywhere.
 */
export const SEGMENT_FRAME_SAMPLES = { m4b: 1024, mp3: 1152, zip: 1 } as const;
export type SegmentedFormat = keyof typeof SEGMENT_FRAME_SAMPLES;

/** Whether a book at `sampleRate` is made of segments: MP3 frames join only at the book's own rate (a resampler's delay would move each segment). */
export const segmentedAt = (format: ExportFormat, sampleRate: number) =>
  format === 'm4b' || encodedSampleRate('mp3', sampleRate) === sampleRate;
const hash = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

/**
 * A segment's identity: its job's audio file as it is now (a sentence edited in place changes its
 * size and time), where its samples are read from, and the silence around them.
 */
async function segmentKey(segment: Segment): Promise<string> {
  const { size, mtimeMs, ino } = await stat(segment.source.file);
  return hash({ ...segment, size, mtimeMs, ino });
}

/** One book's segments, each looked up in the store before a thread is asked. */
class BookSegments {
  /** The store's keys of what this export made (the rest it found kept). */
  readonly made = new Set<string>();

  private constructor(
    private readonly work: SegmentWork,
    readonly segments: Segment[],
    readonly keys: string[],
    /** Whether the MP3 segments are joined into one stream (an MP3 book, not a ZIP's chapters). */
    private readonly joined: boolean,
    private readonly signal: AbortSignal,
  ) {}

  static async of(segments: Segment[], joined: boolean, work: SegmentWork, signal: AbortSignal): Promise<BookSegments> {
    // each segment's task listens to the export's signal while it waits for a thread: 500 chapters, 500 listeners
    setMaxListeners(10 + segments.length, signal);
    return new BookSegments(work, segments, await Promise.all(segments.map(segmentKey)), joined, signal);
  }

  /** The store's key of segment i's result for `kind` at `gainDb`. */
  entryKey(i: number, kind: string, gainDb: number | null): string {
    const entry = { segment: this.keys[i]!, kind, gainDb };
    return hash(kind.startsWith('mp3:') ? [entry, MP3_ENCODER, this.encodedSamples(i, 'mp3')] : [entry, AAC_ENCODER]);
  }

  /** How many of segment i's samples its encode takes: a joined MP3 segment's but the last's leave LAME's extra out. */
  encodedSamples(i: number, codec: FramesFormat): number {
    const { lead, length, trail } = this.segments[i]!;
    const joinedBefore = codec === 'mp3' && this.joined && i < this.segments.length - 1;
    return lead + length + trail - (joinedBefore ? LAME_EXTRA_SAMPLES : 0);
  }

  /**
   * Every segment's result for `kind`: kept, or made by a thread and kept. `before` runs before a
   * thread is asked; `or` names another kind whose kept results serve as well (an encode measured
   * what it encoded: the limited segment at its gain).
   */
  all(
    kind: string,
    gainDb: number | null,
    task: (segment: Segment, key: string, i: number) => SegmentTask,
    done: (samples: number) => void,
    { before = async () => {}, or }: { before?: (segment: Segment) => Promise<void>; or?: string } = {},
  ): Promise<SegmentResult[]> {
    // segments alike (one audio file in two jobs) are made once
    const making = new Map<string, Promise<SegmentResult>>();
    const { store } = this.work;
    const make = async (i: number, segment: Segment, key: string, label: EntryLabel) => {
      const kept = (await store.get(key)) ?? (or === undefined ? null : await store.get(this.entryKey(i, or, gainDb)));
      if (kept) return kept;
      await before(segment);
      const result = await this.work.pool.run(task(segment, key, i), this.signal);
      await store.put(key, label, result);
      this.made.add(key);
      return result;
    };
    return Promise.all(
      this.segments.map(async (segment, i) => {
        const key = this.entryKey(i, kind, gainDb);
        if (!making.has(key)) making.set(key, make(i, segment, key, { segment: this.keys[i]!, kind, gainDb }));
        const result = await making.get(key)!;
        done(segment.lead + segment.length + segment.trail);
        return result;
      }),
    );
  }
}

/** Progress over one phase: from `from` to `to` as the book's samples are done. */
type Phase = (from: number, to: number) => (samples: number) => void;

/**
 * Measures, normalises and encodes the book segment by segment, reusing what is kept, and writes
 * the M4B or MP3 (`sink`: where, with which chapters and tags). `goal` holds the samples' ceiling.
 */
export async function segmentedBook(
  format: SegmentedFormat,
  parts: readonly BookPart[],
  layout: BookLayout,
  sink: SinkOptions,
  goal: LoudnessGoal,
  work: SegmentWork,
  phase: Phase,
  signal: AbortSignal,
): Promise<SegmentedLoudness> {
  // a ZIP's segments are its chapters, each a file of its own; a book's are its parts, joined
  const segments =
    format === 'zip'
      ? sink.chapters.map((c) => sliceOf(parts, layout, c.startSample, c.endSample))
      : parts.map((_, i) => segmentOf(parts, layout, i));
  const book = await BookSegments.of(segments, format === 'mp3', work, signal);
  // "raw:steps": the measures kept before the limiter's model (limiting-model.ts) have no steps
  const raw = await book.all('raw:steps', null, (segment) => ({ segment }), phase(0, 0.15));
  const measured: LoudnessReport = {
    ...emptyReport(sink.totalSamples / sink.sampleRate),
    ...gatedLoudness(raw.map((r) => r.blocks)),
    truePeakDbtp: Math.max(...raw.map((r) => r.truePeakDbtp)),
  };
  const plan = gainFor(
    measured,
    raw.map((r) => r.steps!),
    goal,
  );
  const codec: FramesFormat = format === 'm4b' ? 'aac' : 'mp3';
  const encodeKind = `${codec}:${sink.bitrateKbps}:${goal.ceilingDbtp}`;
  const passes = [0, 1, 2, 3, 4].map((k) => phase(0.15 + 0.03 * k, 0.18 + 0.03 * k));
  const limitedAt = async (gainDb: number, pass: number) => {
    const task = (segment: Segment) => ({ segment, gainDb, ceilingDbtp: goal.ceilingDbtp });
    const results = await book.all(`limited:${goal.ceilingDbtp}`, gainDb, task, passes[pass]!, { or: encodeKind });
    return gatedLoudness(results.map((r) => r.blocks)).integratedLufs;
  };
  // what a segment's frames take is asked of the disk ledger before its thread writes them
  const room = (segment: Segment) => sink.room(estimateExportBytes(segment.length / segment.sampleRate, sink.bitrateKbps));
  const encodeAt = (gainDb: number) => {
    const task = (segment: Segment, key: string, i: number): SegmentTask => {
      const encode = {
        format: codec,
        bitrateKbps: sink.bitrateKbps,
        file: work.store.partialFrames(key, codec),
        samples: book.encodedSamples(i, codec),
      };
      return { segment, gainDb, ceilingDbtp: goal.ceilingDbtp, encode };
    };
    return book.all(encodeKind, gainDb, task, phase(0.3, 0.97), { before: room });
  };
  // a changed chapter is encoded at the last export's gain at once: its encode measures it too
  const previousLoudness = async (gainDb: number) => gatedLoudness((await encodeAt(gainDb)).map((r) => r.blocks)).integratedLufs;
  const gainDb = await keptGain(goal, plan, work.store.usualGain(book.keys, encodeKind), limitedAt, previousLoudness);
  const encoded = await encodeAt(gainDb);
  const keys = encoded.map((_, i) => book.entryKey(i, encodeKind, gainDb));
  work.store.counts.reused += new Set(keys.filter((key) => !book.made.has(key))).size;
  const files = keys.map((key) => work.store.framesFile(key, codec));
  if (format === 'm4b') await joinFrames(encoded, files, sink);
  else if (format === 'mp3')
    await writeMp3(
      sink,
      streams(files, () => 0),
    );
  else await writeZip(sink, files);
  return {
    measured,
    gainDb,
    limited: plan.limited,
    integratedLufs: gatedLoudness(encoded.map((r) => r.blocks)).integratedLufs,
    truePeakDbtp: Math.max(...encoded.map((r) => r.truePeakDbtp)),
  };
}

/** The files one after another, each from `start(i)`. */
async function* streams(files: string[], start: (i: number) => number): AsyncGenerator<Uint8Array> {
  for (const [i, file] of files.entries()) yield* createReadStream(file, { start: start(i) });
}

/** The M4B of the segments' frames, each segment's priming frame dropped but the first's. */
async function joinFrames(encoded: SegmentResult[], files: string[], sink: SinkOptions) {
  const tracks = encoded.map((r) => r.aac!);
  const count = tracks.reduce((n, t, i) => n + t.frameSizes.length - (i === 0 ? 0 : 1), 0);
  const frameSizes = new Uint16Array(count);
  let at = 0;
  tracks.forEach((t, i) => {
    const kept = i === 0 ? t.frameSizes : t.frameSizes.subarray(1);
    frameSizes.set(kept, at);
    at += kept.length;
  });
  await writeM4b(
    sink,
    { ...tracks[0]!, frameSizes },
    streams(files, (i) => (i === 0 ? 0 : tracks[i]!.frameSizes[0]!)),
  );
}

function emptyReport(durationS: number): LoudnessReport {
  return { integratedLufs: -Infinity, truePeakDbtp: -Infinity, samplePeakDbfs: -Infinity, gatedBlocks: 0, blocks: 0, durationS };
}
