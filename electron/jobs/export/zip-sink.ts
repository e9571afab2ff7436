/**
 * A ZIP of one MP3 and its subtitles (WebVTT, SRT) per chapter: made in one pass from the book's
 * samples (zipSink, one encoder per chapter), or from each chapter's MP3 frames encoded apart and
 * kept (writeZip, segments.ts). Either way a chapter's MP3 is its own stream with its own ID3 tag.
 */
import { createReadStream } from 'node:fs';
import { Zip, ZipPassThrough } from 'fflate';
import { createEncoder, type StreamingEncoder } from '../../audio/encode/encoder';
import { id3Tag } from '../../audio/id3';
import { formatSubtitles } from '../subtitles';
import { openGuarded, type BookSink, type SinkOptions } from './sinks';

/** A chapter's file name in the ZIP: its number, then its title without characters file systems refuse. */
function entryName(index: number, count: number, title: string, extension: string): string {
  const number = String(index + 1).padStart(String(count).length < 2 ? 2 : String(count).length, '0');
  const safe = [...title.replace(/[\\/:*?"<>|\p{Cc}]/gu, '_').trim()].slice(0, 80).join('');
  return `${number} ${safe || 'Chapter'}.${extension}`;
}

/**
 * An entry made on Unix, readable by its owner and others: Info-ZIP (the unzip of Linux and macOS)
 * honours the UTF-8 flag of a name only from Unix, and turns "Über" into "+£ber" otherwise.
 */
function zipEntry(name: string): ZipPassThrough {
  const entry = new ZipPassThrough(name);
  entry.os = 3;
  entry.attrs = 0o100644 * 0x10000;
  return entry;
}

/** The ZIP being written: chapters opened and closed in order, each write asking the disk ledger. */
class ZipBook {
  private writes: Promise<unknown> = Promise.resolve();
  private failure: Error | null = null;
  private readonly zip: Zip;

  private constructor(
    private readonly options: SinkOptions,
    private readonly handle: Awaited<ReturnType<typeof openGuarded>>,
  ) {
    this.zip = new Zip((error, bytes) => {
      if (error) this.failure = error;
      // a write refused (the disk ledger) or failed is the ZIP's failure, seen at the next drain
      else this.writes = this.writes.then(() => handle.write(bytes)).catch((writeError: Error) => void (this.failure ??= writeError));
    });
  }

  static async open(options: SinkOptions): Promise<ZipBook> {
    return new ZipBook(options, await openGuarded(options.file, options.room));
  }

  /** Chapter `index`'s MP3 entry, its ID3 tag in it. */
  startChapter(index: number): ZipPassThrough {
    const { chapters, tags } = this.options;
    const entry = zipEntry(entryName(index, chapters.length, chapters[index]!.title, 'mp3'));
    this.zip.add(entry);
    entry.push(id3Tag({ title: chapters[index]!.title, author: tags.author, album: tags.title, track: `${index + 1}/${chapters.length}` }));
    return entry;
  }

  /** Ends chapter `index`'s MP3 with `tail` and adds its subtitles, timed from its start. */
  endChapter(index: number, entry: ZipPassThrough, tail: Uint8Array): void {
    entry.push(tail, true);
    const { chapters, sampleRate } = this.options;
    const chapter = chapters[index]!;
    const from = chapter.startSample / sampleRate;
    const to = chapter.endSample / sampleRate;
    const cues = this.options.cues
      .filter((cue) => cue.start_s >= from && cue.start_s < to)
      .map((cue) => ({ ...cue, start_s: cue.start_s - from, end_s: Math.min(to, cue.end_s) - from }));
    for (const format of ['vtt', 'srt'] as const) {
      const file = zipEntry(entryName(index, chapters.length, chapter.title, format));
      this.zip.add(file);
      file.push(new TextEncoder().encode(formatSubtitles(cues, format)), true);
    }
  }

  /** Waits for what was made to be written: the encoder outruns the disk at times, and waits here, not in memory. */
  async drain(): Promise<void> {
    await this.writes;
    if (this.failure) throw this.failure;
  }

  async finish(): Promise<void> {
    this.zip.end();
    await this.drain();
    await this.handle.close();
  }

  async close(): Promise<void> {
    this.zip.terminate();
    await this.writes.catch(() => undefined);
    await this.handle.close().catch(() => undefined);
  }
}

export async function zipSink(options: SinkOptions): Promise<BookSink> {
  const book = await ZipBook.open(options);
  const { chapters } = options;
  let index = -1;
  let encoder: StreamingEncoder | null = null;
  let entry: ZipPassThrough | null = null;
  let written = 0;

  const endChapter = async () => {
    if (!encoder || !entry) return;
    book.endChapter(index, entry, await encoder.finish());
    encoder = null;
    entry = null;
  };
  const startChapter = async () => {
    index++;
    encoder = await createEncoder('mp3', { sampleRate: options.sampleRate, bitrateKbps: options.bitrateKbps });
    entry = book.startChapter(index);
  };

  return {
    async push(samples) {
      let at = 0;
      while (at < samples.length) {
        if (index < 0 || (index < chapters.length - 1 && written >= chapters[index + 1]!.startSample)) {
          await endChapter();
          await startChapter();
        }
        const limit = index < chapters.length - 1 ? chapters[index + 1]!.startSample - written : Infinity;
        const piece = samples.subarray(at, at + Math.min(samples.length - at, limit));
        entry!.push(await encoder!.push(piece));
        at += piece.length;
        written += piece.length;
      }
      await book.drain();
    },
    async finish() {
      await endChapter();
      await book.finish();
    },
    async close() {
      await (encoder as StreamingEncoder | null)?.close();
      await book.close();
    },
  };
}

/** The ZIP of chapters encoded already: chapter i's MP3 frames are `files[i]` (segments.ts). */
export async function writeZip(options: SinkOptions, files: readonly string[]): Promise<void> {
  const book = await ZipBook.open(options);
  try {
    for (const [index, file] of files.entries()) {
      const entry = book.startChapter(index);
      for await (const chunk of createReadStream(file)) {
        entry.push(chunk as Buffer);
        await book.drain();
      }
      book.endChapter(index, entry, new Uint8Array(0));
    }
    await book.finish();
  } catch (error) {
    await book.close();
    throw error;
  }
}
