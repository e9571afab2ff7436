import { open, rename, type FileHandle } from 'node:fs/promises';
import { setImmediate } from 'node:timers/promises';
import { createEncoder, type StreamingEncoder } from '../audio/encode/encoder';
import { int16View, pcmBytes, WAV_HEADER_BYTES, wavHeader } from '../audio/wav';
import { PRIVATE_FILE_MODE } from '../storage/private-files';
import { jobDiskKey } from './admission';
import type { DiskBudget } from './disk-budget';
import { PARTIAL, type JobFiles } from './files';
import { PeaksFileWriter } from './peaks-file';
import type { JobRow } from './rows';

/** What a finished job's audio came to. */
export interface WrittenAudio {
  /** Size of the file in the job's format. */
  bytes: number;
  /** Bytes of 16-bit samples at the voice's rate: the duration. */
  dataBytes: number;
}

/** Samples read back at a time to make the peaks of a resumed WAV again. */
const RESUME_PIECE_BYTES = 1 << 20;

/**
 * Bytes written between two flushes to disk, started without waiting. The kernel keeps up to a
 * tenth of memory dirty before it writes back by itself, so a job's whole WAV waited for the
 * final flush: 0.4 s for 100,000 characters (254 MB), 4 s for a 16-hour job. Flushed as it goes,
 * the final flush has only the last of it, and a WAV taken up after a power loss holds more.
 */
const FLUSH_EVERY_BYTES = 32 << 20;

/** A file written front to back under its temporary name. */
class PartialFile {
  private position = 0;
  private unflushed = 0;
  /** The flush under way, if one is; a failed one throws at the next append or at seal(). */
  private flushing?: Promise<void>;
  private flushError?: unknown;

  private constructor(
    readonly file: string,
    private readonly handle: FileHandle,
  ) {}

  static async create(file: string): Promise<PartialFile> {
    return new PartialFile(file, await open(file + PARTIAL, 'w', PRIVATE_FILE_MODE));
  }

  /** The partial file as far as `size`: whatever was written after it goes. */
  static async reopen(file: string, size: number): Promise<PartialFile> {
    const handle = await open(file + PARTIAL, 'r+');
    const reopened = new PartialFile(file, handle);
    try {
      await handle.truncate(size);
    } catch (error) {
      await reopened.close();
      throw error;
    }
    reopened.position = size;
    return reopened;
  }

  /** Reads [start, end) a piece at a time. */
  async *pieces(start: number, end: number, pieceBytes: number): AsyncGenerator<Buffer> {
    for (let at = start; at < end; at += pieceBytes) {
      const piece = Buffer.alloc(Math.min(pieceBytes, end - at));
      const { bytesRead } = await this.handle.read(piece, 0, piece.length, at);
      if (bytesRead < piece.length) throw new Error(`${this.file}${PARTIAL} ends at ${at + bytesRead} bytes, before ${end}.`);
      yield piece;
    }
  }

  get size(): number {
    return this.position;
  }

  async append(bytes: Uint8Array): Promise<void> {
    if (this.flushError) throw this.flushError;
    if (bytes.length === 0) return;
    await this.handle.write(bytes, 0, bytes.length, this.position);
    this.position += bytes.length;
    this.unflushed += bytes.length;
    if (this.unflushed >= FLUSH_EVERY_BYTES && !this.flushing) {
      this.unflushed = 0;
      this.flushing = this.handle
        .datasync()
        .catch((error: unknown) => void (this.flushError = error))
        .finally(() => (this.flushing = undefined));
    }
  }

  async writeAt(position: number, bytes: Uint8Array): Promise<void> {
    await this.handle.write(bytes, 0, bytes.length, position);
  }

  /** Flushes and closes; the file keeps its temporary name until publish(). */
  async seal(): Promise<void> {
    await this.flushing;
    if (this.flushError) throw this.flushError;
    await this.handle.sync();
    await this.handle.close();
  }

  publish(): Promise<void> {
    return rename(this.file + PARTIAL, this.file);
  }

  async close(): Promise<void> {
    await this.flushing;
    await this.handle.close().catch(() => undefined); // already closed by seal()
  }
}

/**
 * Writes a job's audio while its chunks arrive in order, in one pass over the samples: the job's
 * format through its streaming encoder, the WAV (the job's format, or kept beside it), and the
 * waveform peaks. Nothing holds more than the samples of one push. The files keep temporary names
 * until finish() renames them, so a half-written file is never served; every write leaves the
 * disk's free minimum (the job's reservation in the disk ledger) or throws DiskFull first.
 */
export class JobAudioWriter {
  private constructor(
    private readonly sampleRate: number,
    /** Asks the disk ledger before each write, under the job's key. */
    private readonly room: (bytes: number) => Promise<void>,
    private readonly files: { peaks: PeaksFileWriter; wav?: PartialFile; encoded?: { file: PartialFile; encoder: StreamingEncoder } },
    /** Bytes of samples written so far, a resumed WAV's included. */
    private dataBytes: number,
  ) {}

  /**
   * `joinedBytes`: a WAV job taken up again, whose partial WAV holds that many bytes of samples
   * already: its writing resumes after them, and its peaks are made again from them.
   */
  static async open(
    files: JobFiles,
    job: Pick<JobRow, 'id' | 'format' | 'bitrate_kbps' | 'keep_wav'>,
    sampleRate: number,
    disk: DiskBudget,
    joinedBytes = 0,
  ): Promise<JobAudioWriter> {
    const encoder =
      job.format === 'wav' ? undefined : await createEncoder(job.format, { sampleRate, bitrateKbps: job.bitrate_kbps ?? undefined });
    let wav: PartialFile | undefined;
    let encoded: PartialFile | undefined;
    let peaks: PeaksFileWriter | undefined;
    try {
      peaks = await PeaksFileWriter.create(files.peaksFile(job.id), sampleRate);
      if (joinedBytes > 0) {
        wav = await PartialFile.reopen(files.audioFile(job.id, 'wav'), WAV_HEADER_BYTES + joinedBytes);
        for await (const piece of wav.pieces(WAV_HEADER_BYTES, wav.size, RESUME_PIECE_BYTES)) await peaks.push(int16View(piece));
      } else if (!encoder || job.keep_wav) {
        wav = await PartialFile.create(files.audioFile(job.id, 'wav'));
        // the real lengths are written over it at the end
        await wav.append(wavHeader(sampleRate, 0));
      }
      if (encoder) encoded = await PartialFile.create(files.audioFile(job.id, job.format));
    } catch (error) {
      await Promise.all([encoder?.close(), wav?.close(), peaks?.close()]);
      throw error;
    }
    const encoding = encoder && encoded ? { file: encoded, encoder } : undefined;
    const room = (bytes: number) => disk.write(jobDiskKey(job.id), bytes);
    return new JobAudioWriter(sampleRate, room, { peaks, wav, encoded: encoding }, joinedBytes);
  }

  /**
   * Appends samples at the voice's rate (a chunk's audio, or the silence after it). Through an
   * encoder, a second at a time with a turn of the event loop between: MP3 and Opus encode in this
   * thread, and half a minute of a chunk at Opus's 39× realtime (a busy machine) would hold every
   * request for 0.8 s. A WAV takes the chunk at once: copying and scanning it takes milliseconds.
   */
  async append(samples: Int16Array): Promise<void> {
    const piece = this.files.encoded ? this.sampleRate : samples.length;
    for (let start = 0; start < samples.length; start += piece) {
      if (start > 0) await setImmediate();
      await this.appendPiece(samples.subarray(start, start + piece));
    }
  }

  private async appendPiece(samples: Int16Array): Promise<void> {
    const { wav, encoded } = this.files;
    const compressed = encoded ? await encoded.encoder.push(samples) : new Uint8Array(0);
    const raw = wav ? pcmBytes(samples) : new Uint8Array(0);
    await this.room(compressed.length + raw.length);
    await Promise.all([wav?.append(raw), encoded?.file.append(compressed), this.files.peaks.push(samples)]);
    this.dataBytes += samples.byteLength;
  }

  /** Ends the encoding, writes the peaks and gives every file its name. */
  async finish(): Promise<WrittenAudio> {
    const { wav, encoded } = this.files;
    if (encoded) {
      const tail = await encoded.encoder.finish();
      await this.room(tail.length);
      await encoded.file.append(tail);
      await encoded.file.seal();
    }
    if (wav) {
      await wav.writeAt(0, wavHeader(this.sampleRate, this.dataBytes));
      await wav.seal();
    }
    await this.files.peaks.finish(this.dataBytes);
    await this.files.peaks.publish();
    // the WAV first: once the job's own file has its name, everything it lists is in place
    await wav?.publish();
    await encoded?.file.publish();
    return { bytes: encoded ? encoded.file.size : WAV_HEADER_BYTES + this.dataBytes, dataBytes: this.dataBytes };
  }

  /** Drops the audio unfinished (the job failed, or the gateway stops); its partial files stay for whoever removes them. */
  async close(): Promise<void> {
    const { wav, encoded } = this.files;
    await Promise.all([wav?.close(), encoded?.file.close(), encoded?.encoder.close(), this.files.peaks.close()]);
  }
}
