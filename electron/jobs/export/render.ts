/**
 * One export from plan to file: the book's layout and chapters (planned when the export is asked
 * for, so that bad requests are refused at once), then the passes over its audio: measure,
 * measure again after limiting when the limiter acts, and condition + encode while measuring the
 * result. An M4B, MP3 or ZIP is made of segments (parts, or a ZIP's chapters) encoded on all cores
 * and kept for the next export (segments.ts); in one pass without the export threads.
 * Nothing holds more than a block of samples but the M4B's frame sizes (formats: sinks.ts).
 */
import { rename, rm, writeFile } from 'node:fs/promises';
import { LoudnessMeter } from '../../audio/loudness';
import type { ExportFormat } from '../../contract';
import { cuesOf, formatSubtitles, type Cue } from '../subtitles';
import { bookSamples, layOut, type BookLayout, type BookPart } from './book-audio';
import { planChapters, type ChapterRule } from './chapters';
import { encodingHeadroomDb } from './headroom';
import { conditioned, correctForLimiting, limitedLoudness, planGain, type LoudnessGoal } from './normalise';
import { SEGMENT_FRAME_SAMPLES, segmentedAt, segmentedBook, type SegmentedLoudness, type SegmentWork } from './segments';
import { m4bSink, mp3Sink, type SinkChapter, type SinkOptions } from './sinks';
import { zipSink } from './zip-sink';

export interface ExportSpec {
  format: ExportFormat;
  bitrateKbps: number;
  title: string;
  author?: string | undefined;
  cover?: Uint8Array | undefined;
  goal: LoudnessGoal;
  headMs: number;
  tailMs: number;
  chapters: ChapterRule;
}

export interface BookPlan {
  layout: BookLayout;
  chapters: SinkChapter[];
  cues: Cue[];
}

export interface ExportFiles {
  audio: string;
  vtt: string;
  srt: string;
}

export interface RenderedLoudness {
  measuredLufs: number;
  gainDb: number;
  integratedLufs: number;
  truePeakDbtp: number;
  limited: boolean;
}

/** Where everything goes in the book: parts, chapters (the first from 0, room tone included), cues. */
export function planBook(parts: readonly BookPart[], spec: Pick<ExportSpec, 'format' | 'headMs' | 'tailMs' | 'chapters'>): BookPlan {
  // an M4B's or MP3's parts are encoded apart and joined: its cuts fall on frames (segments.ts)
  const layout = layOut(parts, spec.headMs, spec.tailMs, SEGMENT_FRAME_SAMPLES[spec.format]);
  const rate = layout.sampleRate;
  const sources = parts.map((p) => ({ jobId: p.jobId, title: p.title, titleGiven: p.titleGiven, sentences: p.timings.sentences }));
  const starts = planChapters(sources, spec.chapters)
    .map((c) => ({ title: c.title, start: c.job === 0 && c.sentence === 0 ? 0 : layout.starts[c.job]! + Math.round(c.startS * rate) }))
    .filter((c, i, all) => i === 0 || c.start > all[i - 1]!.start);
  const chapters = starts.map((c, i) => ({ title: c.title, startSample: c.start, endSample: starts[i + 1]?.start ?? layout.totalSamples }));
  const total = layout.totalSamples / rate;
  const cues = parts.flatMap((p, i) => cuesOf(p.timings.sentences, layout.starts[i]! / rate, total));
  return { layout, chapters, cues };
}

export async function renderExport(
  parts: readonly BookPart[],
  spec: ExportSpec,
  plan: BookPlan,
  files: ExportFiles,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
  /** Asks the disk ledger before each write of the book and its subtitles. */
  room: (bytes: number) => Promise<void>,
  /** The export threads and the kept segments: the book is then made of segments (segments.ts). */
  work?: SegmentWork,
): Promise<RenderedLoudness> {
  const { layout } = plan;
  const total = layout.totalSamples;
  const phase = (from: number, to: number) => {
    let done = 0;
    return (n: number) => onProgress(from + ((to - from) * Math.min(total, (done += n))) / total);
  };
  // the samples are held under the ceiling by what the codec adds to peaks: the file stays under it
  const headroom = encodingHeadroomDb(spec.format, spec.bitrateKbps, layout.sampleRate);
  const goal = { ...spec.goal, ceilingDbtp: spec.goal.ceilingDbtp - headroom };
  const partial = `${files.audio}.partial`;
  const options: SinkOptions = {
    file: partial,
    sampleRate: layout.sampleRate,
    totalSamples: total,
    bitrateKbps: spec.bitrateKbps,
    chapters: plan.chapters,
    tags: { title: spec.title, author: spec.author, cover: spec.cover },
    cues: plan.cues,
    room,
  };
  try {
    const { format } = spec;
    const segmented = segmentedAt(format, layout.sampleRate);
    const inSegments = async (work: SegmentWork) => {
      // the kept segments this export joins stay until it ends
      work.store.hold();
      try {
        return await segmentedBook(format, parts, layout, options, goal, work, phase, signal);
      } finally {
        await work.store.trim();
      }
    };
    const loudness = work && segmented ? await inSegments(work) : await inOnePass(parts, format, layout, options, goal, phase, signal);
    for (const format of ['vtt', 'srt'] as const) {
      const text = formatSubtitles(plan.cues, format);
      await room(Buffer.byteLength(text));
      await writeFile(files[format], text, { mode: 0o600 });
    }
    await rename(partial, files.audio);
    return { ...loudness, measuredLufs: loudness.measured.integratedLufs };
  } catch (error) {
    await Promise.all([partial, files.vtt, files.srt].map((file) => rm(file, { force: true })));
    throw error;
  }
}

/**
 * The book streamed through its passes: measure, measure again after limiting when the limiter
 * acts, and condition + encode while measuring the result.
 */
async function inOnePass(
  parts: readonly BookPart[],
  format: ExportFormat,
  layout: BookLayout,
  options: SinkOptions,
  goal: LoudnessGoal,
  phase: (from: number, to: number) => (samples: number) => void,
  signal: AbortSignal,
): Promise<SegmentedLoudness> {
  const book = () => bookSamples(parts, layout, signal);
  const first = await planGain(book, layout.sampleRate, goal, phase(0, 0.2));
  // up to four correction passes share 0.2 to 0.5; encoding takes the rest
  const passes = [0, 1, 2, 3].map((k) => phase(0.2 + 0.075 * k, 0.275 + 0.075 * k));
  const loudnessAt = limitedLoudness(book, layout.sampleRate, goal, (k, n) => passes[k]!(n));
  const gain = first.limited ? await correctForLimiting(goal, first, loudnessAt) : first;
  const encodeProgress = phase(first.limited ? 0.5 : 0.2, 1);
  const sink = await (format === 'm4b' ? m4bSink(options) : format === 'mp3' ? mp3Sink(options) : zipSink(options));
  const meter = new LoudnessMeter(layout.sampleRate);
  try {
    for await (const piece of conditioned(book(), layout.sampleRate, goal, gain.gainDb)) {
      meter.push(piece);
      await sink.push(piece);
      encodeProgress(piece.length);
    }
    await sink.finish();
  } catch (error) {
    await sink.close();
    throw error;
  }
  const result = meter.finish();
  return { measured: first.measured, gainDb: gain.gainDb, limited: first.limited, ...result };
}
