import { parseBuffer } from 'music-metadata';
import { describe, expect, it } from 'vitest';
import { AdtsReader, parseAdts } from './adts';
import { createEncoder } from './encode/encoder';
import { id3Tag } from './id3';
import { writeM4b } from './m4b';

const RATE = 22_050;
const tone = Int16Array.from({ length: RATE * 3 }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / RATE)));
const chapters = [
  { title: 'Opening', startS: 0 },
  { title: 'Chapter Two: Ünïcode “quotes”', startS: 1.234 },
  { title: 'Three', startS: 2.5 },
];
// the smallest PNG: its signature is enough to tell it from a JPEG
const cover = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

async function encode(format: 'aac' | 'mp3'): Promise<Uint8Array> {
  const encoder = await createEncoder(format, { sampleRate: RATE, bitrateKbps: 64 });
  return Buffer.concat([await encoder.push(tone), await encoder.finish()]);
}

describe('M4B writer', () => {
  it('writes chapters (QuickTime chapter track) and tags that music-metadata reads', async () => {
    const aac = parseAdts(await encode('aac'));
    expect(aac.sampleRate).toBe(RATE);
    const file = writeM4b(aac, tone.length, chapters, { title: 'A Book', author: 'An Author', cover }, 64_000);
    const { format, common } = await parseBuffer(file, { mimeType: 'audio/mp4' }, { includeChapters: true });
    expect(format.container).toContain('M4B');
    expect(format.codec).toContain('AAC');
    expect(format.sampleRate).toBe(RATE);
    expect(Math.abs(format.duration! - 3)).toBeLessThan(0.1); // the media, priming and padding included
    expect(format.chapters?.map((c) => c.title)).toEqual(chapters.map((c) => c.title));
    const starts = format.chapters!.map((c) => c.start / c.timeScale!);
    starts.forEach((start, i) => expect(Math.abs(start - chapters[i]!.startS)).toBeLessThan(0.002));
    expect([common.title, common.artist, common.album]).toEqual(['A Book', 'An Author', 'A Book']);
    expect(common.picture?.[0]?.format).toBe('image/png');
  });
});

describe('ADTS reader', () => {
  it('gives the same frames whatever pieces the stream comes in', async () => {
    const adts = await encode('aac');
    const whole = parseAdts(adts);
    const reader = new AdtsReader();
    const frames: Uint8Array[] = [];
    for (let at = 0; at < adts.length; at += 100) frames.push(...reader.push(adts.subarray(at, at + 100)));
    const hex = (list: Uint8Array[]) => list.map((f) => Buffer.from(f).toString('hex'));
    expect(hex(frames)).toEqual(hex(whole.frames));
    expect(reader.track().config).toEqual(whole.config);
    expect(() => new AdtsReader().push(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]))).toThrow(/No ADTS frame/);
    const cut = new AdtsReader();
    cut.push(adts.subarray(0, 10));
    expect(() => cut.track()).toThrow(/truncated/);
  });
});

describe('ID3v2.3 tag with chapters', () => {
  it('gives CHAP frames, title, author and cover that music-metadata reads before the MP3 frames', async () => {
    const marks = chapters.map((c, i) => ({ title: c.title, startMs: c.startS * 1000, endMs: (chapters[i + 1]?.startS ?? 3) * 1000 }));
    const tag = id3Tag({ title: 'A Book', author: 'An Author', album: 'A Book', cover, chapters: marks });
    const file = Buffer.concat([tag, await encode('mp3')]);
    const { format, common } = await parseBuffer(file, { mimeType: 'audio/mpeg' }, { includeChapters: true });
    expect(format.codec).toMatch(/MPEG/);
    expect(format.chapters?.map((c) => c.title)).toEqual(chapters.map((c) => c.title));
    format.chapters!.forEach((c, i) => expect(c.start).toBeCloseTo(chapters[i]!.startS, 3));
    expect([common.title, common.artist]).toEqual(['A Book', 'An Author']);
    expect(common.picture?.[0]?.format).toBe('image/png');
  });
});
