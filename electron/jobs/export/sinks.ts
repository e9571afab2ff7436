/**
 * Where a book's conditioned samples go: an M4B (AAC with chapter marks), an MP3 with an ID3 tag
 * holding its chapters (a ZIP of one MP3 per chapter: zip-sink.ts). Each writes one file.
 */
import { createReadStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { AdtsReader, type AacTrack } from '../../audio/adts';
import { createEncoder } from '../../audio/encode/encoder';
import { id3Tag } from '../../audio/id3';
import { m4bParts, type BookTags } from '../../audio/m4b';
import type { Cue } from '../subtitles';

export interface BookSink {
  push(samples: Int16Array): Promise<void>;
  finish(): Promise<void>;
  /** Drops the work unfinished (a cancel, an error). */
  close(): Promise<void>;
}

export interface SinkChapter {
  title: string;
  startSample: number;
  endSample: number;
}

export interface SinkOptions {
  file: string;
  sampleRate: number;
  totalSamples: number;
  bitrateKbps: number;
  chapters: readonly SinkChapter[];
  tags: BookTags;
  /** The whole book's cues, in seconds of the book. */
  cues: readonly Cue[];
  /** Asks the disk ledger before each write (throws DiskFull when it does not fit). */
  room: (bytes: number) => Promise<void>;
}

/** A file opened for writing whose every write asks the disk ledger first. */
export async function openGuarded(file: string, room: SinkOptions['room']) {
  const handle = await open(file, 'w', 0o600);
  return {
    async write(bytes: Uint8Array): Promise<void> {
      await room(bytes.length);
      await handle.write(bytes);
    },
    /** Pieces written in one call (an M4B's head: its sample tables, never joined into one buffer). */
    async writev(parts: Uint8Array[]): Promise<void> {
      await room(parts.reduce((sum, part) => sum + part.length, 0));
      await handle.writev(parts);
    },
    close: () => handle.close(),
  };
}

/**
 * The AAC frames go to a side file as they are encoded (an MP4's moov, which comes first, needs all
 * their sizes); the .m4b is then written as its head, the frames copied from that file, its tail.
 */
export async function m4bSink(options: SinkOptions): Promise<BookSink> {
  const encoder = await createEncoder('aac', { sampleRate: options.sampleRate, bitrateKbps: options.bitrateKbps });
  const framesFile = `${options.file}.frames`;
  const frames = await openGuarded(framesFile, options.room);
  const reader = new AdtsReader();
  const keep = async (adts: Uint8Array) => {
    const raw = reader.push(adts);
    if (raw.length > 0) await frames.write(raw);
  };
  return {
    push: async (samples) => keep(await encoder.push(samples)),
    async finish() {
      await keep(await encoder.finish());
      await frames.close();
      try {
        await writeM4b(options, reader.track(), createReadStream(framesFile));
      } finally {
        await rm(framesFile, { force: true });
      }
    },
    async close() {
      await encoder.close();
      await frames.close().catch(() => undefined);
      await rm(framesFile, { force: true });
    },
  };
}

/** The .m4b of a track whose raw frames, in order, `frames` gives: its head, the frames, its tail. */
export async function writeM4b(options: SinkOptions, track: AacTrack, frames: AsyncIterable<Uint8Array>): Promise<void> {
  const marks = options.chapters.map((c) => ({ title: c.title, startS: c.startSample / options.sampleRate }));
  const { head, tail } = m4bParts(track, options.totalSamples, marks, options.tags, options.bitrateKbps * 1000);
  const book = await openGuarded(options.file, options.room);
  try {
    await book.writev(head);
    for await (const chunk of frames) await book.write(chunk);
    await book.write(tail);
  } finally {
    await book.close();
  }
}

const msOf = (samples: number, rate: number) => Math.round((samples / rate) * 1000);

/** The ID3 tag that opens the book's MP3: its title, author, cover and chapters. */
function mp3Head(options: SinkOptions): Uint8Array {
  const rate = options.sampleRate;
  const chapters = options.chapters.map((c) => ({ title: c.title, startMs: msOf(c.startSample, rate), endMs: msOf(c.endSample, rate) }));
  const { title, author, cover } = options.tags;
  return id3Tag({ title, author, album: title, cover, chapters });
}

export async function mp3Sink(options: SinkOptions): Promise<BookSink> {
  const encoder = await createEncoder('mp3', { sampleRate: options.sampleRate, bitrateKbps: options.bitrateKbps });
  const handle = await openGuarded(options.file, options.room);
  await handle.write(mp3Head(options));
  return {
    push: async (samples) => void (await handle.write(await encoder.push(samples))),
    async finish() {
      await handle.write(await encoder.finish());
      await handle.close();
    },
    async close() {
      await encoder.close();
      await handle.close().catch(() => undefined);
    },
  };
}

/** The .mp3 of frames encoded already (segments.ts): its ID3 tag, then the frames as `frames` gives them. */
export async function writeMp3(options: SinkOptions, frames: AsyncIterable<Uint8Array>): Promise<void> {
  const book = await openGuarded(options.file, options.room);
  try {
    await book.write(mp3Head(options));
    for await (const chunk of frames) await book.write(chunk);
  } finally {
    await book.close();
  }
}
