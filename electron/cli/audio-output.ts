/**
 * Writes audio the gateway sends to a file or standard output as it arrives. A file is written
 * under a temporary name and renamed when complete, so a failed download never leaves half a
 * file under the name asked for. WAV the gateway sends where another format was asked (a gateway
 * without that encoder on that route) is encoded here, with the same streaming encoders.
 */
import { createWriteStream, rmSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { StreamingEncoder } from '../audio/encode/encoder';
import { AUDIO_FORMATS, FORMATS, type AudioFormat } from '../audio/encode/formats';
import { int16View, parseWav, WAV_HEADER_BYTES, wavHeader } from '../audio/wav';
import { CommandFailure, UsageError } from './failures';
import { onInterrupt } from './interrupt';

/** File name endings and the format each means; `opus` and `raw` are common names too. */
const EXTENSIONS: Record<string, AudioFormat> = {
  wav: 'wav',
  mp3: 'mp3',
  ogg: 'ogg',
  opus: 'ogg',
  flac: 'flac',
  m4a: 'm4a',
  mp4: 'm4a',
  aac: 'aac',
  pcm: 'pcm',
  raw: 'pcm',
};

/** The format of `--format`, else of the output file's extension, else WAV. */
export function outputFormat(format: string | undefined, output: string | undefined): AudioFormat {
  if (format !== undefined) {
    const named = EXTENSIONS[format.toLowerCase()];
    if (!named) throw new UsageError(`Unknown format "${format}"; use one of ${AUDIO_FORMATS.join(', ')}.`);
    return named;
  }
  if (output === undefined || output === '-') return 'wav';
  const extension = /\.([^./\\]+)$/.exec(output)?.[1]?.toLowerCase();
  const fromName = extension === undefined ? undefined : EXTENSIONS[extension];
  if (!fromName)
    throw new UsageError(`Cannot tell the format from "${output}"; end it in .${AUDIO_FORMATS.join(', .')}, or give --format.`);
  return fromName;
}

/** Saves an audio answer to `output` ("-" or undefined: standard output) in `format`. */
export async function saveAudio(response: Response, format: AudioFormat, output: string | undefined): Promise<void> {
  const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (!response.body) throw new CommandFailure('The gateway sent no audio.');
  let audio: AsyncIterable<Uint8Array> = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
  if (type !== FORMATS[format].contentType) {
    if (type !== 'audio/wav') throw new CommandFailure(`The gateway sent ${type || 'no content type'}, not ${format} audio.`);
    audio = wavTo(format, audio);
  }
  if (output === undefined || output === '-') return toStdout(audio);
  const partial = `${output}.part`;
  const release = onInterrupt(() => rmSync(partial, { force: true }));
  try {
    await pipeline(audio, createWriteStream(partial));
    if (format === 'wav') await sealWavLength(partial);
    await rename(partial, output);
    release();
  } catch (error) {
    release();
    await rm(partial, { force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if (code && /^E[A-Z]+$/.test(code)) throw new CommandFailure(`Cannot write ${output}: ${(error as Error).message}`);
    throw error;
  }
}

/**
 * A streamed WAV says "to the end of the file" (0xFFFFFFFF) where its lengths go: a file, once
 * complete, gets its real lengths, which every player reads.
 */
async function sealWavLength(file: string): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    const head = Buffer.alloc(WAV_HEADER_BYTES);
    await handle.read(head, 0, WAV_HEADER_BYTES, 0);
    const { size } = await handle.stat();
    const info = parseWav(head);
    if (head.readUInt32LE(4) !== 0xffffffff || info.dataOffset !== WAV_HEADER_BYTES) return;
    await handle.write(wavHeader(info.sampleRate, size - WAV_HEADER_BYTES), 0, WAV_HEADER_BYTES, 0);
  } finally {
    await handle.close();
  }
}

/** A reader that stops early (`orator say … | head -c 100`) is no failure. */
async function toStdout(audio: AsyncIterable<Uint8Array>) {
  try {
    await pipeline(audio, process.stdout as Writable, { end: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
  }
}

/** A stream of 16-bit mono WAV as `format`, encoded as it arrives. */
export async function* wavTo(format: AudioFormat, source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  let head = Buffer.alloc(0);
  let encoder: StreamingEncoder | undefined;
  let odd: Buffer | undefined; // a sample split between two pieces
  let finished = false;
  try {
    for await (const piece of source) {
      let data: Buffer;
      if (encoder) data = Buffer.from(piece);
      else {
        head = Buffer.concat([head, piece]);
        const info = wavInfo(head);
        if (!info) continue;
        if (info.format !== 1 || info.channels !== 1 || info.bitsPerSample !== 16)
          throw new CommandFailure('The gateway sent WAV that is not 16-bit mono PCM.');
        // loaded only here: the codecs' modules take a good part of a second to load
        const { createEncoder } = await import('../audio/encode/encoder');
        encoder = await createEncoder(format, { sampleRate: info.sampleRate });
        data = head.subarray(info.dataOffset);
      }
      if (odd) data = Buffer.concat([odd, data]);
      odd = data.length % 2 ? Buffer.from(data.subarray(data.length - 1)) : undefined;
      const out = await encoder.push(int16View(data.subarray(0, data.length - (data.length % 2))));
      if (out.length) yield out;
    }
    if (!encoder) throw new CommandFailure('The gateway sent no WAV audio.');
    finished = true;
    yield await encoder.finish();
  } finally {
    if (!finished) await encoder?.close();
  }
}

/** Longer than any WAV header Orator writes (44 bytes), with room for extra chunks. */
const MAX_WAV_HEADER = 64 * 1024;

/** The WAV's format once its header has arrived; undefined while it may still be coming. */
function wavInfo(head: Buffer) {
  try {
    return parseWav(head);
  } catch (error) {
    if (head.length < MAX_WAV_HEADER) return undefined;
    throw new CommandFailure(`The gateway sent audio that is not WAV: ${(error as Error).message}`);
  }
}
