import { parseBuffer } from 'music-metadata';
import { describe, expect, it } from 'vitest';
import { AdtsReader, type AacTrack } from './adts';
import { concatBytes } from './bytes';
import { createEncoder } from './encode/encoder';
import { id3Tag } from './id3';
import { m4bParts, type BookTags, type ChapterMark } from './m4b';

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

/** Raw AAC frames and their track, as the M4B sink gets them from the encoder. */
function readAac(adts: Uint8Array): { raw: Uint8Array; track: AacTrack } {
  const reader = new AdtsReader();
  const raw = reader.push(adts);
  return { raw, track: reader.track() };
}

/** A whole .m4b in memory: the head, the frames, the tail (the sink copies the frames from a file). */
function m4bFile(aac: { raw: Uint8Array; track: AacTrack }, samples: number, marks: readonly ChapterMark[], book: BookTags) {
  const { head, tail } = m4bParts(aac.track, samples, marks, book, 64_000);
  return concatBytes([...head, aac.raw, tail]);
}

describe('M4B writer', () => {
  it('writes chapters (QuickTime chapter track) and tags that music-metadata reads', async () => {
    const aac = readAac(await encode('aac'));
    expect(aac.track.sampleRate).toBe(RATE);
    const file = m4bFile(aac, tone.length, chapters, { title: 'A Book', author: 'An Author', cover });
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
    const whole = readAac(adts);
    const reader = new AdtsReader();
    const pieces: Uint8Array[] = [];
    for (let at = 0; at < adts.length; at += 100) pieces.push(reader.push(adts.subarray(at, at + 100)));
    expect(Buffer.from(concatBytes(pieces)).equals(Buffer.from(whole.raw))).toBe(true);
    const track = reader.track();
    expect(track.config).toEqual(whole.track.config);
    expect([...track.frameSizes]).toEqual([...whole.track.frameSizes]);
    expect(track.frameSizes.reduce((n, size) => n + size, 0)).toBe(whole.raw.length);
    // every frame but its header: ADTS headers are 7 bytes without CRC
    expect(adts.length - whole.raw.length).toBe(7 * track.frameSizes.length);
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
