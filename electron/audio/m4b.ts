/**
 * An audiobook MP4 (.m4b): AAC with chapter marks and iTunes tags, written whole (moov before mdat,
 * so players read the chapters before the audio). Chapters go twice, as players differ: a
 * QuickTime chapter track (a text track the audio track names in `tref/chap`: Apple Books,
 * ffmpeg, music-metadata) and Nero's `chpl` list in `udta` (many Android players, foobar2000).
 * The encoder's priming (1024 samples for FFmpeg's AAC) is cut by an edit list, so time 0 is the
 * first real sample and chapter times need no offset.
 *
 * A day of audio is millions of frames: the sample tables are typed arrays written by a loop,
 * never a function argument per frame (the call stack holds about a hundred thousand).
 */
import type { AacTrack } from './adts';
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
/** Nero's `chpl` counts its chapters in one byte; the chapter track holds them all. */
const CHPL_MAX_CHAPTERS = 255;
const UINT32_MAX = 0xffffffff;

const utf8 = (text: string) => new TextEncoder().encode(text);

/** Big-endian integers of the given byte widths (a few fields of a box, never a table). */
function ints(...values: [number, number][]): Uint8Array {
  const out = new Uint8Array(values.reduce((n, [, width]) => n + width, 0));
  let at = 0;
  for (const [value, width] of values) {
    for (let i = width - 1; i >= 0; i--) out[at + (width - 1 - i)] = Math.floor(value / 2 ** (8 * i)) & 0xff;
    at += width;
  }
  return out;
}

/** A table of 32-bit big-endian entries, `width` per row, filled by `entry(row, column)`. */
function table(rows: number, width: number, entry: (row: number, column: number) => number): Uint8Array {
  const out = new Uint8Array(rows * width * 4);
  const view = new DataView(out.buffer);
  for (let row = 0, at = 0; row < rows; row++)
    for (let column = 0; column < width; column++, at += 4) view.setUint32(at, entry(row, column));
  return out;
}

/**
 * A box as the pieces it is written from, in order: a parent lists its children's pieces rather
 * than copying them, so a day's sample table (16 MB at 48 kHz) is written where it was made.
 */
export type Pieces = Uint8Array[];

const sizeOf = (pieces: Pieces) => pieces.reduce((n, p) => n + p.length, 0);

function box(type: string, ...content: (Uint8Array | Pieces)[]): Pieces {
  const body: Pieces = [];
  for (const part of content) {
    if (part instanceof Uint8Array) body.push(part);
    else for (const piece of part) body.push(piece);
  }
  // box types are four Latin-1 bytes: "©nam" starts with 0xA9
  return [ints([8 + sizeOf(body), 4]), Uint8Array.from(type, (c) => c.charCodeAt(0))].concat(body);
}

const fullBox = (type: string, version: number, flags: number, ...content: (Uint8Array | Pieces)[]) =>
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

/**
 * Media header; language "und" packed as ISO 639-2/T in 5-bit letters. Version 1 (64-bit times)
 * when the duration passes 32 bits: a day at 64 kHz or more.
 */
function mdhd(timescale: number, duration: number): Pieces {
  const wide = duration > UINT32_MAX ? 8 : 4;
  return fullBox('mdhd', wide === 8 ? 1 : 0, 0, ints([0, wide], [0, wide], [timescale, 4], [duration, wide], [0x55c4, 2], [0, 2]));
}

const hdlr = (handler: string, name: string) => fullBox('hdlr', 0, 0, ints([0, 4]), utf8(handler), ints([0, 12]), utf8(`${name}\0`));

const dinf = () => box('dinf', fullBox('dref', 0, 0, ints([1, 4]), fullBox('url ', 0, 1)));

/** An MPEG-4 descriptor: tag, one-byte length (every one here is under 128 bytes). */
const descriptor = (tag: number, ...content: Uint8Array[]) => {
  const body = concatBytes(content);
  return concatBytes([ints([tag, 1], [body.length, 1]), body]);
};

function esds(config: Uint8Array, bitrate: number): Pieces {
  const decoderConfig = descriptor(4, ints([0x40, 1], [0x15, 1], [0, 3], [bitrate, 4], [bitrate, 4]), descriptor(5, config));
  return fullBox('esds', 0, 0, descriptor(3, ints([0, 2], [0, 1]), decoderConfig, descriptor(6, ints([2, 1]))));
}

interface SampleTable {
  /** The sample description (`mp4a`, `text`). */
  entry: Pieces;
  /** Time-to-sample runs: [count, delta]. */
  durations: readonly (readonly [number, number])[];
  samplesPerChunk: number;
  sampleCount: number;
  /** The samples' sizes as `stsz` entries (sizeTable). */
  sizes: Uint8Array;
  /** Where each chunk starts in the file. */
  offsets: readonly number[];
}

const sizeTable = (sizes: ArrayLike<number>) => table(sizes.length, 1, (row) => sizes[row]!);

const sampleTable = ({ entry, durations, samplesPerChunk, sampleCount, sizes, offsets }: SampleTable) =>
  box(
    'stbl',
    fullBox('stsd', 0, 0, ints([1, 4]), entry),
    fullBox(
      'stts',
      0,
      0,
      ints([durations.length, 4]),
      table(durations.length, 2, (row, column) => durations[row]![column]!),
    ),
    fullBox('stsc', 0, 0, ints([1, 4], [1, 4], [samplesPerChunk, 4], [1, 4])),
    fullBox('stsz', 0, 0, ints([0, 4], [sampleCount, 4]), sizes),
    fullBox(
      'stco',
      0,
      0,
      ints([offsets.length, 4]),
      table(offsets.length, 1, (row) => offsets[row]!),
    ),
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
  return concatBytes([ints([bytes.length, 2]), bytes, ...box('encd', ints([0x100, 4]))]);
};

function tags(book: BookTags, chapters: readonly ChapterMark[]): Pieces {
  const item = (type: string, dataType: number, value: Uint8Array) => box(type, box('data', ints([dataType, 4], [0, 4]), value));
  const items: Pieces[] = [];
  if (book.title) items.push(item('©nam', 1, utf8(book.title)), item('©alb', 1, utf8(book.title)));
  if (book.author) items.push(item('©ART', 1, utf8(book.author)), item('aART', 1, utf8(book.author)));
  items.push(item('©gen', 1, utf8('Audiobook')), item('©too', 1, utf8('Orator')));
  if (book.cover) items.push(item('covr', book.cover[0] === 0x89 ? 14 : 13, book.cover));
  const meta = fullBox('meta', 0, 0, hdlr('mdir', ''), box('ilst', ...items));
  // Nero chapters: start in 100 ns units, title of at most 255 bytes; the first 255 chapters, as ffmpeg writes them
  const listed = chapters.slice(0, CHPL_MAX_CHAPTERS);
  const chpl = fullBox(
    'chpl',
    1,
    0,
    ints([0, 4], [listed.length, 1]),
    listed.flatMap((chapter) => {
      const title = utf8(chapter.title).subarray(0, 255);
      return [ints([Math.round(chapter.startS * 1e7), 8], [title.length, 1]), title];
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
): { head: Pieces; tail: Uint8Array } {
  const frameCount = aac.frameSizes.length;
  const durationMs = Math.round((samples / aac.sampleRate) * 1000);
  const starts = chapters.map((c) => Math.min(durationMs, Math.round(c.startS * 1000)));
  const lengths = starts.map((start, i) => Math.max(1, (starts[i + 1] ?? durationMs) - start));
  const titles = chapters.map((c) => textSample(c.title));
  let audioBytes = 0;
  for (const size of aac.frameSizes) audioBytes += size;
  const titleBytes = titles.reduce((n, t) => n + t.length, 0);

  // the audio's sample sizes, most of the moov, are the same wherever the audio lies: made once
  const audioEntry = box(
    'mp4a',
    ints([0, 6], [1, 2], [0, 8], [aac.channels, 2], [16, 2], [0, 4], [aac.sampleRate * 0x10000, 4]),
    esds(aac.config, bitrate),
  );
  const audioSizes = sizeTable(aac.frameSizes);
  const audioTable = (audioOffset: number) =>
    sampleTable({
      entry: audioEntry,
      durations: [[frameCount, AAC_FRAME]],
      samplesPerChunk: frameCount,
      sampleCount: frameCount,
      sizes: audioSizes,
      offsets: [audioOffset],
    });

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
        box('minf', fullBox('smhd', 0, 0, ints([0, 4])), dinf(), audioTable(audioOffset)),
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
          sampleTable({
            entry: textEntry(),
            // one entry per chapter (count 1): some readers sum the entries' deltas
            durations: lengths.map((length) => [1, length] as const),
            samplesPerChunk: 1,
            sampleCount: titles.length,
            sizes: sizeTable(titles.map((t) => t.length)),
            offsets: textOffsets,
          }),
        ),
      ),
    );
    return box('moov', mvhd(durationMs), audioTrack, chapterTrack, tags(book, chapters));
  };

  const ftyp = box('ftyp', utf8('M4B '), ints([0, 4]), utf8('M4B M4A mp42isom'));
  // moov's size does not depend on the offsets it holds: build it once to learn it
  const mdatStart = sizeOf(ftyp) + sizeOf(moov(0));
  const mdatSize = 8 + audioBytes + titleBytes;
  // 32-bit sizes and offsets: the largest export (24 hours at 256 kb/s) is 2.8 GB
  if (mdatStart + mdatSize > UINT32_MAX) throw new RangeError(`An M4B of ${mdatStart + mdatSize} bytes passes the 4 GiB of 32-bit offsets`);
  return { head: ftyp.concat(moov(mdatStart), [ints([mdatSize, 4]), utf8('mdat')]), tail: concatBytes(titles) };
}
