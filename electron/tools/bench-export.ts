/**
 * `npm run bench:export [-- --hours 2,15 --formats m4b,mp3 --chapter-minutes 30]`: an audiobook export of a long book,
 * timed, with the peak memory of the process that made it, against FFmpeg making the same book
 * (electron/tools/bench/baselines.ts) in the same run. The book is real eSpeak NG speech (the GPL-3
 * text) looped into a half-hour WAV that every chapter reads, as a project's chapter jobs would be
 * read (each chapter a hard link of its own): hours of audio without hours of synthesis. Each export
 * runs in a child process of its own, so that its peak RSS is its own (docs/audiobook.md, Speed).
 * Each book is exported again after one chapter's file changed (a sentence said again): the second
 * export encodes that chapter alone (jobs/export/segments.ts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { link, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { WAV_HEADER_BYTES, encodeWav } from '../audio/wav';
import type { ExportFormat, SentenceTiming } from '../contract';
import { espeakWasm } from '../engines/espeak-ng/wasm';
import type { BookPart } from '../jobs/export/book-audio';
import { planBook, renderExport, type ExportSpec } from '../jobs/export/render';
import { SegmentPool } from '../jobs/export/segment-pool';
import { SegmentStore } from '../jobs/export/segment-store';
import { prose } from '../testing/prose';
import { ffmpegAudiobook } from './bench/baselines';

const LICENCE = '/usr/share/common-licenses/GPL-3';
const { values } = parseArgs({
  options: {
    hours: { type: 'string', default: '2,15' },
    formats: { type: 'string', default: 'm4b,mp3' },
    one: { type: 'string' },
    wav: { type: 'string' },
    // shorter chapters: a fix of one is a smaller part of the book
    'chapter-minutes': { type: 'string', default: '30' },
  },
});
const PART_S = Number(values['chapter-minutes']) * 60;
const SENTENCE_S = 5;
const BITRATE_KBPS = 64;

/** The book's parts: each chapter a hard link to the looped WAV, a file of its own as a job's is (no disk). */
async function bookParts(hours: number, wav: string, dir: string): Promise<BookPart[]> {
  const sampleRate = 22_050;
  const samples = PART_S * sampleRate;
  const sentences: SentenceTiming[] = Array.from({ length: PART_S / SENTENCE_S }, (_, i) => ({
    start_s: i * SENTENCE_S,
    end_s: (i + 1) * SENTENCE_S - 0.5,
    text_start: i * 60,
    text_end: i * 60 + 59,
    text: 'A sentence of the book, about as long as sentences in books are.',
  }));
  const count = Math.round((hours * 3600) / PART_S);
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const file = path.join(dir, `part-${i}.wav`);
      await link(wav, file);
      return {
        jobId: `part-${i}`,
        title: `Chapter ${i + 1}`,
        titleGiven: true,
        source: { file, offset: WAV_HEADER_BYTES, sampleRate },
        samples,
        timings: { duration_s: PART_S, sentences },
      };
    }),
  );
}

/**
 * A sentence of the middle chapter said again: its file written anew with one 5 s sentence 1 dB
 * quieter, as a render after a lexicon fix leaves it.
 */
async function fixOneChapter(parts: BookPart[]): Promise<void> {
  const part = parts[Math.floor(parts.length / 2)]!;
  const bytes = await readFile(part.source.file);
  const samples = new Int16Array(bytes.buffer, bytes.byteOffset + WAV_HEADER_BYTES, part.samples);
  const from = 60 * part.source.sampleRate;
  for (let i = from; i < from + SENTENCE_S * part.source.sampleRate; i++) samples[i] = Math.round(samples[i]! * 0.89);
  await rm(part.source.file);
  await writeFile(part.source.file, bytes);
}

/** One export in this process, then again after a fix of one chapter: prints its times, peak RSS and size as JSON. */
async function exportOnce(hours: number, format: ExportFormat, wav: string) {
  const dir = await mkdtemp(path.join(path.dirname(wav), 'run-'));
  const parts = await bookParts(hours, wav, dir);
  const spec: ExportSpec = {
    format,
    bitrateKbps: BITRATE_KBPS,
    title: 'A Long Book',
    goal: { targetLufs: -18, ceilingDbtp: -3 },
    headMs: 750,
    tailMs: 750,
    chapters: 'jobs',
  };
  const files = { audio: path.join(dir, `book.${format}`), vtt: path.join(dir, 'book.vtt'), srt: path.join(dir, 'book.srt') };
  const pool = new SegmentPool(path.resolve('dist/export-worker.mjs'));
  const work = { pool, store: await SegmentStore.open(path.join(dir, 'data'), Number.MAX_SAFE_INTEGER) };
  // no disk ledger here: the bench measures the encoding alone
  const timed = async () => {
    const started = performance.now();
    await renderExport(
      parts,
      spec,
      planBook(parts, spec),
      files,
      () => {},
      new AbortController().signal,
      async () => {},
      work,
    );
    return (performance.now() - started) / 1000;
  };
  let error: string | undefined;
  let seconds = 0;
  let fixSeconds: number | undefined;
  const cpu = () => {
    const usage = process.resourceUsage();
    return (usage.userCPUTime + usage.systemCPUTime) / 1e6;
  };
  const cpuBefore = cpu();
  let cpuSeconds = 0;
  try {
    seconds = await timed();
    cpuSeconds = cpu() - cpuBefore;
    await fixOneChapter(parts);
    fixSeconds = await timed();
  } catch (e) {
    error = (e as Error).message;
  }
  const bytes = error ? 0 : (await stat(files.audio)).size;
  await pool.close();
  await rm(dir, { recursive: true, force: true });
  const maxRssMb = process.resourceUsage().maxRSS / 1024;
  console.log(JSON.stringify({ seconds, fixSeconds, encodes: work.store.counts, cpuSeconds, maxRssMb, bytes, error }));
}

async function main() {
  if (values.one) {
    const [hours, format] = values.one.split(':');
    await exportOnce(Number(hours), format as ExportFormat, values.wav!);
    return;
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'orator-bench-export-'));
  try {
    const text = (existsSync(LICENCE) ? readFileSync(LICENCE, 'utf8') : prose(30_000)).replace(/\s+/g, ' ').slice(0, 30_000);
    const speech = await espeakWasm.synthesize({ text, voice: 'en-us', rate: 1, pitch: 1, volume: 1 });
    const looped = new Int16Array(PART_S * speech.sampleRate);
    for (let at = 0; at < looped.length; at += speech.samples.length) looped.set(speech.samples.subarray(0, looped.length - at), at);
    const wav = path.join(dir, 'part.wav');
    await writeFile(wav, encodeWav({ samples: looped, sampleRate: speech.sampleRate }));
    console.log(
      `Orator export bench: ${os.cpus()[0]?.model}, ${os.availableParallelism()} cores, Node ${process.version}, load ${os.loadavg()[0]!.toFixed(1)}`,
    );
    console.log(
      `${(speech.samples.length / speech.sampleRate).toFixed(0)} s of eSpeak NG speech looped into chapters of ${PART_S / 60} min\n`,
    );
    const hasFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0 && existsSync('/usr/bin/time');
    console.log(
      `baseline: ${hasFfmpeg ? 'FFmpeg from the same WAV and chapters (native AAC, libmp3lame), no loudness pass; ratio = Orator / FFmpeg' : 'none (no ffmpeg or GNU time)'}\n`,
    );
    console.log(
      '| book | format | export time | CPU time | × real time | peak RSS | size | after a fix of one chapter | FFmpeg time | FFmpeg CPU | FFmpeg peak RSS | wall ratio | CPU ratio |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const hours of values.hours.split(',').map(Number)) {
      const copies = Math.round((hours * 3600) / PART_S);
      for (const format of values.formats.split(',') as ExportFormat[]) {
        const out = execFileSync(
          process.execPath,
          [
            ...process.execArgv,
            process.argv[1]!,
            '--one',
            `${hours}:${format}`,
            '--wav',
            wav,
            '--chapter-minutes',
            values['chapter-minutes'],
          ],
          {
            encoding: 'utf8',
            maxBuffer: 1024 * 1024,
          },
        );
        const result = JSON.parse(out.trim().split('\n').at(-1)!) as {
          seconds: number;
          fixSeconds?: number;
          encodes: { encoded: number; reused: number };
          cpuSeconds: number;
          maxRssMb: number;
          bytes: number;
          error?: string;
        };
        const size = result.error ? `failed: ${result.error}` : `${(result.bytes / 2 ** 20).toFixed(0)} MiB`;
        const speed = `${((hours * 3600) / result.seconds).toFixed(0)}×`;
        const fix =
          result.fixSeconds === undefined
            ? '—'
            : `${result.fixSeconds.toFixed(1)} s (${((100 * result.fixSeconds) / result.seconds).toFixed(1)} %; ${result.encodes.encoded} encodes in all, ${result.encodes.reused} reused)`;
        let baseline = '— | — | — | — | —';
        if (hasFfmpeg && format !== 'zip') {
          const ffmpeg = await ffmpegAudiobook(wav, copies, PART_S, format, BITRATE_KBPS);
          const ratio = (ours: number, theirs: number) => (result.error ? '—' : `${(ours / theirs).toFixed(2)}×`);
          baseline = `${ffmpeg.seconds.toFixed(0)} s | ${ffmpeg.cpuSeconds.toFixed(0)} s | ${ffmpeg.maxRssMb.toFixed(0)} MB | ${ratio(result.seconds, ffmpeg.seconds)} | ${ratio(result.cpuSeconds, ffmpeg.cpuSeconds)}`;
        }
        console.log(
          `| ${hours} h | ${format} | ${result.seconds.toFixed(0)} s | ${result.cpuSeconds.toFixed(0)} s | ${speed} | ${result.maxRssMb.toFixed(0)} MB | ${size} | ${fix} | ${baseline} |`,
        );
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
