/**
 * Containers at the longest export the product allows (24 hours, 500 chapters), built from real
 * encoded frames repeated rather than from 24 hours of encoding, and read back by FFmpeg and
 * music-metadata, which share no code with the writers.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { parseFile } from 'music-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_LIMITS } from '../contract';
import { ffmpegDecode, ffprobe, ffprobePackets } from '../testing/ffprobe';
import { AdtsReader } from './adts';
import { createEncoder } from './encode/encoder';
import { id3Tag } from './id3';
import { m4bParts, type ChapterMark } from './m4b';

const RATE = 22_050;
const DAY_S = EXPORT_LIMITS.hours * 3600;
const CHAPTERS = EXPORT_LIMITS.chapters;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'orator-day-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Chapters spread evenly over the book, with titles no ASCII-only writer would get right. */
function marks(count: number, seconds: number): ChapterMark[] {
  return Array.from({ length: count }, (_, i) => ({ title: `Chapter ${i + 1}: Ünïcode “${i}”`, startS: (i * seconds) / count }));
}

/** The raw frames of a real encoding: one of silence (4 bytes at 64 kb/s) and those of a tone (about 190). */
async function realFrames(): Promise<{ silence: Uint8Array; tone: Uint8Array[]; config: Uint8Array }> {
  const encode = async (samples: Int16Array) => {
    const encoder = await createEncoder('aac', { sampleRate: RATE, bitrateKbps: 64 });
    const reader = new AdtsReader();
    const raw = Buffer.concat([reader.push(await encoder.push(samples)), reader.push(await encoder.finish())]);
    const { frameSizes, config } = reader.track();
    const frames: Uint8Array[] = [];
    for (let i = 0, at = 0; i < frameSizes.length; at += frameSizes[i]!, i++) frames.push(raw.subarray(at, at + frameSizes[i]!));
    return { frames: frames.slice(2, -2), config }; // the steady middle
  };
  const quiet = await encode(new Int16Array(RATE));
  const tone = await encode(Int16Array.from({ length: RATE * 2 }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / RATE))));
  return { silence: quiet.frames[0]!, tone: tone.frames, config: tone.config };
}

describe('an M4B of 24 hours and 500 chapters', () => {
  it('has the sample table, chapter marks and duration that FFmpeg and music-metadata read', async () => {
    const { silence, tone, config } = await realFrames();
    const samples = DAY_S * RATE;
    const frameCount = Math.ceil((samples + 1024) / 1024); // the priming frame first
    // a tone frame every 97th frame, so that sizes vary; then 10 s of silence and 10 s of tone to end with
    const framesOf = (seconds: number) => Math.ceil((seconds * RATE) / 1024);
    const toneFrom = frameCount - framesOf(10);
    const quietFrom = toneFrom - framesOf(10);
    const frameAt = (i: number) => ((i % 97 === 0 && i < quietFrom) || i >= toneFrom ? tone[i % tone.length]! : silence);
    const frameSizes = new Uint16Array(frameCount);
    for (let i = 0; i < frameCount; i++) frameSizes[i] = frameAt(i).length;
    const chapters = marks(CHAPTERS, DAY_S);

    const cpu = process.cpuUsage();
    const { head, tail } = m4bParts({ config, sampleRate: RATE, channels: 1, frameSizes }, samples, chapters, { title: 'A Day' }, 64_000);
    const used = process.cpuUsage(cpu);
    expect((used.user + used.system) / 1e6).toBeLessThan(5); // linear in the frames: about 0.3 s here
    const file = await writeM4b('day.m4b', head, frameCount, frameAt, tail);

    const probe = await ffprobe(file, { countPackets: true });
    const audio = probe.streams.find((s) => s.codec_type === 'audio')!;
    expect([audio.codec_name, audio.sample_rate]).toEqual(['aac', String(RATE)]);
    expect(Number(audio.nb_read_packets)).toBe(frameCount);
    expect(Math.abs(Number(probe.format.duration) - DAY_S)).toBeLessThan(0.1);
    expect(probe.chapters).toHaveLength(CHAPTERS);
    probe.chapters.forEach((chapter, i) => {
      expect(chapter.tags?.title).toBe(chapters[i]!.title);
      expect(Math.abs(Number(chapter.start_time) - chapters[i]!.startS)).toBeLessThan(0.002);
      expect(Math.abs(Number(chapter.end_time) - (chapters[i + 1]?.startS ?? DAY_S))).toBeLessThan(0.002);
    });

    const { format } = await parseFile(file, { includeChapters: true });
    expect(format.chapters).toHaveLength(CHAPTERS);
    expect(format.chapters!.at(-1)!.title).toBe(chapters.at(-1)!.title);
    expect(Math.abs(format.duration! - DAY_S)).toBeLessThan(0.2);

    // each packet's size, where FFmpeg reads it from the sample table: at the start and over an hour in
    const sizes = await ffprobePackets(file, '0%+#200,3600%+#200');
    expect(sizes.length).toBe(400);
    for (const { index, size } of sizes) expect(size).toBe(frameSizes[index]);

    // the offsets hold to the end of the file: its last seconds decode to the tone, the ones before to silence
    const end = await ffmpegDecode(file, DAY_S - 14, 14);
    expect(Math.abs(end.samples.length / RATE - 14)).toBeLessThan(0.1);
    const rms = (from: number, to: number) =>
      Math.sqrt(end.samples.subarray(from * RATE, to * RATE).reduce((n, s) => n + s * s, 0) / ((to - from) * RATE));
    expect(rms(0.5, 3.5)).toBeLessThan(50);
    expect(rms(5, 14)).toBeGreaterThan(2000);
  }, 300_000);

  it('switches the media header to 64-bit times when a day at 96 kHz passes 32 bits', async () => {
    const { silence } = await realFrames(); // decoders take it at any rate: it is silence
    const rate = 96_000;
    const config = new Uint8Array([0x10, 0x08]); // AAC LC, rate index 0 (96 kHz), mono
    const samples = DAY_S * rate; // 8.3e9, over 2^32
    const frameCount = Math.ceil((samples + 1024) / 1024);
    const frameSizes = new Uint16Array(frameCount).fill(silence.length);
    const { head, tail } = m4bParts({ config, sampleRate: rate, channels: 1, frameSizes }, samples, marks(3, DAY_S), {}, 64_000);
    const file = await writeM4b('96k.m4b', head, frameCount, () => silence, tail);
    const audio = (await ffprobe(file)).streams[0]!;
    expect([audio.sample_rate, audio.duration_ts]).toEqual([String(rate), samples]);
    expect(Math.abs(Number(audio.duration) - DAY_S)).toBeLessThan(0.1);
  }, 180_000);
});

/** Writes an .m4b from its parts, its frames made by `frameAt` a block at a time. */
async function writeM4b(name: string, head: Uint8Array[], frameCount: number, frameAt: (i: number) => Uint8Array, tail: Uint8Array) {
  const file = path.join(dir, name);
  const out = createWriteStream(file);
  for (const piece of head) out.write(piece);
  for (let i = 0; i < frameCount;) {
    const block: Uint8Array[] = [];
    for (const end = Math.min(frameCount, i + 65_536); i < end; i++) block.push(frameAt(i));
    if (!out.write(Buffer.concat(block))) await once(out, 'drain');
  }
  out.end(tail);
  await once(out, 'finish');
  return file;
}

describe('an MP3 tag of 500 chapters over 24 hours', () => {
  it('gives every chapter to FFmpeg and music-metadata, in order, without a table of contents past 255', async () => {
    const chapters = marks(CHAPTERS, DAY_S).map((c, i, all) => ({
      title: c.title,
      startMs: c.startS * 1000,
      endMs: (all[i + 1]?.startS ?? DAY_S) * 1000,
    }));
    const encoder = await createEncoder('mp3', { sampleRate: RATE, bitrateKbps: 64 });
    const audio = Buffer.concat([await encoder.push(new Int16Array(RATE)), await encoder.finish()]);
    const file = path.join(dir, 'day.mp3');
    await writeFile(file, Buffer.concat([id3Tag({ title: 'A Day', chapters }), audio]));

    const probe = await ffprobe(file);
    expect(probe.chapters).toHaveLength(CHAPTERS);
    probe.chapters.forEach((chapter, i) => {
      expect(chapter.tags?.title).toBe(chapters[i]!.title);
      expect(Math.abs(Number(chapter.start_time) * 1000 - chapters[i]!.startMs)).toBeLessThanOrEqual(1);
      expect(Math.abs(Number(chapter.end_time) * 1000 - chapters[i]!.endMs)).toBeLessThanOrEqual(1);
    });
    const { format, native } = await parseFile(file, { includeChapters: true });
    expect(format.chapters?.map((c) => c.title)).toEqual(chapters.map((c) => c.title));
    expect(format.chapters!.at(-1)!.start).toBeCloseTo(chapters.at(-1)!.startMs / 1000, 3);
    expect(
      Object.values(native)
        .flat()
        .filter((tag) => tag.id === 'CTOC'),
    ).toHaveLength(0);
  }, 60_000);

  it('keeps one ordered table of contents for up to 255 chapters', async () => {
    const chapters = marks(255, 3600).map((c) => ({ title: c.title, startMs: c.startS * 1000, endMs: c.startS * 1000 + 1 }));
    const file = path.join(dir, 'hour.mp3');
    await writeFile(file, id3Tag({ chapters }));
    const { native } = await parseFile(file);
    const tocs = Object.values(native)
      .flat()
      .filter((tag) => tag.id === 'CTOC');
    expect(tocs).toHaveLength(1);
    expect((tocs[0]!.value as { childElementIds: string[] }).childElementIds).toHaveLength(255);
  });
});
