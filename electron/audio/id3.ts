/**
 * An ID3v2.3 tag for an MP3 audiobook: title (TIT2), author (TPE1), album (TALB), track (TRCK),
 * cover (APIC) and chapters per the ID3v2 Chapter Frame Addendum (a CHAP frame per chapter, with
 * its TIT2, and an ordered top-level CTOC). Version 2.3 with UTF-16 text is what every player
 * and tagger reads.
 */
import { concatBytes } from './bytes';

export interface Id3Fields {
  title?: string | undefined;
  author?: string | undefined;
  album?: string | undefined;
  /** "3" or "3/12". */
  track?: string | undefined;
  /** JPEG or PNG bytes. */
  cover?: Uint8Array | undefined;
  chapters?: readonly { title: string; startMs: number; endMs: number }[];
}

/**
 * CTOC counts its children in one byte. A book of more chapters has its CHAP frames without a
 * CTOC, which the addendum allows: readers then order them by their start times (ffmpeg and
 * music-metadata read CHAP frames so; a reader of nested tables of contents is rarer).
 */
const CTOC_MAX_CHILDREN = 255;

const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);

const uint32 = (value: number) => new Uint8Array([value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff]);

function frame(id: string, ...content: Uint8Array[]): Uint8Array {
  const body = concatBytes(content);
  return concatBytes([latin1(id), uint32(body.length), new Uint8Array(2), body]);
}

/** Encoding 1: UTF-16 with a byte-order mark (little endian). */
function utf16(text: string): Uint8Array {
  const out = new Uint8Array(2 + text.length * 2);
  out[0] = 0xff;
  out[1] = 0xfe;
  for (let i = 0; i < text.length; i++) {
    out[2 + 2 * i] = text.charCodeAt(i) & 0xff;
    out[3 + 2 * i] = text.charCodeAt(i) >> 8;
  }
  return out;
}

const textFrame = (id: string, text: string) => frame(id, new Uint8Array([1]), utf16(text));

/** The tag's bytes, to put before the MP3 frames. */
export function id3Tag(fields: Id3Fields): Uint8Array {
  const frames: Uint8Array[] = [];
  if (fields.title) frames.push(textFrame('TIT2', fields.title));
  if (fields.author) frames.push(textFrame('TPE1', fields.author));
  if (fields.album) frames.push(textFrame('TALB', fields.album));
  if (fields.track) frames.push(textFrame('TRCK', fields.track));
  frames.push(textFrame('TCON', 'Audiobook'));
  if (fields.cover) {
    const mime = fields.cover[0] === 0x89 ? 'image/png' : 'image/jpeg';
    // text encoding 0, MIME type, picture type 3 (front cover), empty description
    frames.push(frame('APIC', new Uint8Array([0]), latin1(`${mime}\0`), new Uint8Array([3, 0]), fields.cover));
  }
  const chapters = fields.chapters ?? [];
  const ids = chapters.map((_, i) => `ch${i}`);
  if (chapters.length > 0 && chapters.length <= CTOC_MAX_CHILDREN) {
    // top-level and ordered
    frames.push(frame('CTOC', latin1('toc\0'), new Uint8Array([0x03, chapters.length]), concatBytes(ids.map((id) => latin1(`${id}\0`)))));
  }
  for (const [i, chapter] of chapters.entries()) {
    frames.push(
      frame(
        'CHAP',
        latin1(`${ids[i]!}\0`),
        uint32(Math.round(chapter.startMs)),
        uint32(Math.round(chapter.endMs)),
        // no byte offsets: players use the times
        uint32(0xffffffff),
        uint32(0xffffffff),
        textFrame('TIT2', chapter.title),
      ),
    );
  }
  const body = concatBytes(frames);
  // the tag's size is "synchsafe": 7 bits a byte
  const size = body.length;
  const header = new Uint8Array([0x49, 0x44, 0x33, 3, 0, 0, (size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f]);
  return concatBytes([header, body]);
}
