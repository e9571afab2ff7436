/**
 * `npm run bench:export [-- --hours 2,15 --formats m4b,mp3]`: an audiobook export of a long book,
 * timed, with the peak memory of the process that made it, against FFmpeg making the same book
 * (electron/tools/bench/baselines.ts) in the same run. The book is real eSpeak NG speech (the GPL-3
 * text) looped into a half-hour WAV that every chapter reads, as a project's chapter jobs would be
 * read: hours of audio without hours of synthesis. Each export runs in a child process of its own,
 * so that its peak RSS is its own (docs/audiobook.md, Speed).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { WAV_HEADER_BYTES, encodeWav } from '../audio/wav';
import type { ExportFormat, SentenceTiming } from '../contract';
import { espeakWasm } from '../engines/espeak-ng/wasm';
import type { BookPart } from '../jobs/export/book-audio';
import { planBook, renderExport, type ExportSpec } from '../jobs/export/render';
import { prose } from '../testing/prose';
import { ffmpegAudiobook } from './bench/baselines';

const LICENCE = '/usr/share/common-licenses/GPL-3';
const PART_S = 1800;
const SENTENCE_S = 5;
const BITRATE_KBPS = 64;

const { values } = parseArgs({
  options: {
    hours: { type: 'string', default: '2,15' },
    formats: { type: 'string', default: 'm4b,mp3' },
    one: { type: 'string' },
    wav: { type: 'string' },
  },
});

/** One export in this process: prints its time, peak RSS and size as JSON. */
async function exportOnce(hours: number, format: ExportFormat, wav: string, dir: string) {
  const sampleRate = 22_050;
  const samples = PART_S * sampleRate;
  const sentences: SentenceTiming[] = Array.from({ length: PART_S / SENTENCE_S }, (_, i) => ({
    start_s: i * SENTENCE_S,
    end_s: (i + 1) * SENTENCE_S - 0.5,
    text_start: i * 60,
    text_end: i * 60 + 59,
    text: 'A sentence of the book, about as long as sentences in books are.',
  }));
  const parts: BookPart[] = Array.from({ length: Math.round((hours * 3600) / PART_S) }, (_, i) => ({
    jobId: `part-${i}`,
    title: `Chapter ${i + 1}`,
    titleGiven: true,
    source: { file: wav, offset: WAV_HEADER_BYTES, sampleRate },
    samples,
    timings: { duration_s: PART_S, sentences },
  }));
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
  const started = performance.now();
  let error: string | undefined;
  try {
    // no disk ledger here: the bench measures the encoding alone
    await renderExport(
      parts,
      spec,
      planBook(parts, spec),
      files,
      () => undefined,
      new AbortController().signal,
      async () => {},
    );
  } catch (e) {
    error = (e as Error).message;
  }
  const seconds = (performance.now() - started) / 1000;
  const bytes = error ? 0 : (await stat(files.audio)).size;
  const usage = process.resourceUsage();
  const cpuSeconds = (usage.userCPUTime + usage.systemCPUTime) / 1e6;
  console.log(JSON.stringify({ seconds, cpuSeconds, maxRssMb: usage.maxRSS / 1024, bytes, error }));
}

async function main() {
  if (values.one) {
    const [hours, format] = values.one.split(':');
    await exportOnce(Number(hours), format as ExportFormat, values.wav!, path.dirname(values.wav!));
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
      '| book | format | export time | CPU time | × real time | peak RSS | size | FFmpeg time | FFmpeg CPU | FFmpeg peak RSS | wall ratio | CPU ratio |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const hours of values.hours.split(',').map(Number)) {
      const copies = Math.round((hours * 3600) / PART_S);
      for (const format of values.formats.split(',') as ExportFormat[]) {
        const out = execFileSync(process.execPath, [...process.execArgv, process.argv[1]!, '--one', `${hours}:${format}`, '--wav', wav], {
          encoding: 'utf8',
          maxBuffer: 1024 * 1024,
        });
        const result = JSON.parse(out.trim().split('\n').at(-1)!) as {
          seconds: number;
          cpuSeconds: number;
          maxRssMb: number;
          bytes: number;
          error?: string;
        };
        const size = result.error ? `failed: ${result.error}` : `${(result.bytes / 2 ** 20).toFixed(0)} MiB`;
        const speed = `${((hours * 3600) / result.seconds).toFixed(0)}×`;
        let baseline = '— | — | — | — | —';
        if (hasFfmpeg && format !== 'zip') {
          const ffmpeg = await ffmpegAudiobook(wav, copies, PART_S, format, BITRATE_KBPS);
          const ratio = (ours: number, theirs: number) => (result.error ? '—' : `${(ours / theirs).toFixed(2)}×`);
          baseline = `${ffmpeg.seconds.toFixed(0)} s | ${ffmpeg.cpuSeconds.toFixed(0)} s | ${ffmpeg.maxRssMb.toFixed(0)} MB | ${ratio(result.seconds, ffmpeg.seconds)} | ${ratio(result.cpuSeconds, ffmpeg.cpuSeconds)}`;
        }
        console.log(
          `| ${hours} h | ${format} | ${result.seconds.toFixed(0)} s | ${result.cpuSeconds.toFixed(0)} s | ${speed} | ${result.maxRssMb.toFixed(0)} MB | ${size} | ${baseline} |`,
        );
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
