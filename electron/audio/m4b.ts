/**
 * An audiobook MP4 (.m4b): AAC with chapter marks and iTunes tags, written whole (moov before mdat,
 * so players read the chapters before the audio). Chapters go twice, as players differ: a
 * QuickTime chapter track (a text track the audio track names in `tref/chap`: Apple Books,
 * ffmpeg, music-metadata) and Nero's `chpl` list in `udta` (many Android players, foobar2000).
 * The encoder's priming (1024 samples for FFmpeg's AAC) is cut by an edit list, so time 0 is the
 * first real sample and chapter times need no offset.
 */
import type { AacStream, AacTrack } from './adts';
import { concatBytes } from './bytes';

export interface BookTags {
  title?: string | undefined;
  author?: string | undefined;
  /** JPEG or PNG bytes. */
  cover?: Uint8Array | undefined;
}

export interface ChapterMark {
  title: string;
  startS: number;
}

const AAC_FRAME = 1024;
/** Samples FFmpeg's AAC encoder puts before the audio. */
const PRIMING = 1024;
const MOVIE_TIMESCALE = 1000;

const utf8 = (text: string) => new TextEncoder().encode(text);

/** Big-endian integers of the given byte widths. */
function ints(...values: [number, number][]): Uint8Array {
  const out = new Uint8Array(values.reduce((n, [, width]) => n + width, 0));
  let at = 0;
  for (const [value, width] of values) {
    for (let i = width - 1; i >= 0; i--) out[at + (width - 1 - i)] = Math.floor(value / 2 ** (8 * i)) & 0xff;
    at += width;
  }
  return out;
}

function box(type: string, ...content: Uint8Array[]): Uint8Array {
  const body = concatBytes(content);
  // box types are four Latin-1 bytes: "©nam" starts with 0xA9
  return concatBytes([ints([8 + body.length, 4]), Uint8Array.from(type, (c) => c.charCodeAt(0)), body]);
}

const fullBox = (type: string, version: number, flags: number, ...content: Uint8Array[]) =>
  box(type, ints([version, 1], [flags, 3]), ...content);

const MATRIX = ints([0x10000, 4], [0, 4], [0, 4], [0, 4], [0x10000, 4], [0, 4], [0, 4], [0, 4], [0x40000000, 4]);

const mvhd = (durationMs: number) =>
  fullBox(
    'mvhd',
    0,
    0,
    ints([0, 4], [0, 4], [MOVIE_TIMESCALE, 4], [durationMs, 4], [0x10000, 4], [0x100, 2], [0, 10]),
    MATRIX,
    ints([0, 24], [3, 4]),
  );

const tkhd = (id: number, durationMs: number, enabled: boolean, volume: number) =>
  fullBox(
    'tkhd',
    0,
    enabled ? 7 : 0,
    ints([0, 4], [0, 4], [id, 4], [0, 4], [durationMs, 4], [0, 8], [0, 2], [0, 2], [volume, 2], [0, 2]),
    MATRIX,
    ints([0, 4], [0, 4]),
  );

/** Media header; language "und" packed as ISO 639-2/T in 5-bit letters. */
const mdhd = (timescale: number, duration: number) =>
  fullBox('mdhd', 0, 0, ints([0, 4], [0, 4], [timescale, 4], [duration, 4], [0x55c4, 2], [0, 2]));

const hdlr = (handler: string, name: string) => fullBox('hdlr', 0, 0, ints([0, 4]), utf8(handler), ints([0, 12]), utf8(`${name}\0`));

const dinf = () => box('dinf', fullBox('dref', 0, 0, ints([1, 4]), fullBox('url ', 0, 1)));

/** An MPEG-4 descriptor: tag, one-byte length (every one here is under 128 bytes). */
const descriptor = (tag: number, ...content: Uint8Array[]) => {
  const body = concatBytes(content);
  return concatBytes([ints([tag, 1], [body.length, 1]), body]);
};

function esds(config: Uint8Array, bitrate: number): Uint8Array {
  const decoderConfig = descriptor(4, ints([0x40, 1], [0x15, 1], [0, 3], [bitrate, 4], [bitrate, 4]), descriptor(5, config));
  return fullBox('esds', 0, 0, descriptor(3, ints([0, 2], [0, 1]), decoderConfig, descriptor(6, ints([2, 1]))));
}

const sampleTable = (entry: Uint8Array, stts: [number, number][], samplesPerChunk: number, sizes: number[], offsets: number[]) =>
  box(
    'stbl',
    fullBox('stsd', 0, 0, ints([1, 4]), entry),
    fullBox(
      'stts',
      0,
      0,
      ints(
        [stts.length, 4],
        ...stts.flatMap(([count, delta]): [number, number][] => [
          [count, 4],
          [delta, 4],
        ]),
      ),
    ),
    fullBox('stsc', 0, 0, ints([1, 4], [1, 4], [samplesPerChunk, 4], [1, 4])),
    fullBox('stsz', 0, 0, ints([0, 4], [sizes.length, 4], ...sizes.map((size): [number, number] => [size, 4]))),
    fullBox('stco', 0, 0, ints([offsets.length, 4], ...offsets.map((offset): [number, number] => [offset, 4]))),
  );

/** A QuickTime text sample description, as chapter tracks use it. */
const textEntry = () =>
  box(
    'text',
    ints(
      [0, 6],
      [1, 2],
      [0, 4],
      [1, 4],
      [0, 6],
      [0, 8],
      [0, 8],
      [0, 2],
      [0, 2],
      [0, 1],
      [0, 2],
      [0xffff, 2],
      [0xffff, 2],
      [0xffff, 2],
      [0, 1],
    ),
  );

/** A chapter title as a text sample: length, UTF-8, and the `encd` atom that says UTF-8. */
const textSample = (title: string) => {
  const bytes = utf8(title);
  return concatBytes([ints([bytes.length, 2]), bytes, box('encd', ints([0x100, 4]))]);
};

function tags(book: BookTags, chapters: readonly ChapterMark[]): Uint8Array {
  const item = (type: string, dataType: number, value: Uint8Array) => box(type, box('data', ints([dataType, 4], [0, 4]), value));
  const items: Uint8Array[] = [];
  if (book.title) items.push(item('©nam', 1, utf8(book.title)), item('©alb', 1, utf8(book.title)));
  if (book.author) items.push(item('©ART', 1, utf8(book.author)), item('aART', 1, utf8(book.author)));
  items.push(item('©gen', 1, utf8('Audiobook')), item('©too', 1, utf8('Orator')));
  if (book.cover) items.push(item('covr', book.cover[0] === 0x89 ? 14 : 13, book.cover));
  const meta = fullBox('meta', 0, 0, hdlr('mdir', ''), box('ilst', ...items));
  // Nero chapters: start in 100 ns units, title of at most 255 bytes
  const chpl = fullBox(
    'chpl',
    1,
    0,
    ints([0, 4], [chapters.length, 1]),
    ...chapters.map((chapter) => {
      const title = utf8(chapter.title).subarray(0, 255);
      return concatBytes([ints([Math.round(chapter.startS * 1e7), 8], [title.length, 1]), title]);
    }),
  );
  return box('udta', meta, chpl);
}

/**
 * An .m4b in three parts, so that the audio can be copied from a file between them: the head
 * (`ftyp`, `moov`, the `mdat` header), then the raw AAC frames in order, then the tail (the chapter
 * titles, at the end of `mdat`). `samples`: the real audio's length (without priming and padding).
 */
export function m4bParts(
  aac: AacTrack,
  samples: number,
  chapters: readonly ChapterMark[],
  book: BookTags,
  bitrate: number,
): { head: Uint8Array; tail: Uint8Array } {
  const frameCount = aac.frameSizes.length;
  const durationMs = Math.round((samples / aac.sampleRate) * 1000);
  const starts = chapters.map((c) => Math.min(durationMs, Math.round(c.startS * 1000)));
  const lengths = starts.map((start, i) => Math.max(1, (starts[i + 1] ?? durationMs) - start));
  const titles = chapters.map((c) => textSample(c.title));
  const audioBytes = aac.frameSizes.reduce((n, size) => n + size, 0);

  const moov = (mdatStart: number) => {
    const audioOffset = mdatStart + 8;
    let textOffset = audioOffset + audioBytes;
    const textOffsets = titles.map((t) => (textOffset += t.length) - t.length);
    const audioTrack = box(
      'trak',
      tkhd(1, durationMs, true, 0x100),
      box('tref', box('chap', ints([2, 4]))),
      box('edts', fullBox('elst', 0, 0, ints([1, 4], [durationMs, 4], [PRIMING, 4], [0x10000, 4]))),
      box(
        'mdia',
        mdhd(aac.sampleRate, frameCount * AAC_FRAME),
        hdlr('soun', 'SoundHandler'),
        box(
          'minf',
          fullBox('smhd', 0, 0, ints([0, 4])),
          dinf(),
          sampleTable(
            box(
              'mp4a',
              ints([0, 6], [1, 2], [0, 8], [aac.channels, 2], [16, 2], [0, 4], [aac.sampleRate * 0x10000, 4]),
              esds(aac.config, bitrate),
            ),
            [[frameCount, AAC_FRAME]],
            frameCount,
            aac.frameSizes,
            [audioOffset],
          ),
        ),
      ),
    );
    const chapterTrack = box(
      'trak',
      tkhd(2, durationMs, false, 0),
      box(
        'mdia',
        mdhd(MOVIE_TIMESCALE, durationMs),
        hdlr('text', 'ChapterHandler'),
        box(
          'minf',
          fullBox('nmhd', 0, 0),
          dinf(),
          sampleTable(
            textEntry(),
            // one entry per chapter (count 1): some readers sum the entries' deltas
            lengths.map((length): [number, number] => [1, length]),
            1,
            titles.map((t) => t.length),
            textOffsets,
          ),
        ),
      ),
    );
    return box('moov', mvhd(durationMs), audioTrack, chapterTrack, tags(book, chapters));
  };

  const ftyp = box('ftyp', utf8('M4B '), ints([0, 4]), utf8('M4B M4A mp42isom'));
  // moov's size does not depend on the offsets it holds: build it once to learn it
  const mdatStart = ftyp.length + moov(0).length;
  const mdatSize = 8 + audioBytes + titles.reduce((n, t) => n + t.length, 0);
  return { head: concatBytes([ftyp, moov(mdatStart), ints([mdatSize, 4]), utf8('mdat')]), tail: concatBytes(titles) };
}

/** The whole .m4b in memory. */
export function writeM4b(aac: AacStream, samples: number, chapters: readonly ChapterMark[], book: BookTags, bitrate: number): Uint8Array {
  const { head, tail } = m4bParts({ ...aac, frameSizes: aac.frames.map((f) => f.length) }, samples, chapters, book, bitrate);
  return concatBytes([head, ...aac.frames, tail]);
}
