/**
 * Test support: decodes Orator's encoded audio with programs that share no code with its encoders
 * (Debian's sox with libmad and libFLAC, opusdec's libopusfile, faad2; mp4box.js for MP4 boxes).
 * .ci/run installs them: sox, libsox-fmt-mp3, opus-tools, faad.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createFile, MP4BoxBuffer, type Sample } from 'mp4box';
import type { AudioFormat } from '../audio/encode/formats';
import { parseWav } from '../audio/wav';

const run = promisify(execFile);

export interface DecodedAudio {
  /** The rate the file declares (for AAC: its header, as faad2 doubles low rates on output). */
  sampleRate: number;
  channels: number;
  /** Seconds of audio the decoder produced. */
  seconds: number;
  /** The first channel, 16-bit. */
  samples: Int16Array;
}

export async function decodeIndependently(format: AudioFormat, bytes: Uint8Array, pcmRate = 24000): Promise<DecodedAudio> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'orator-decode-'));
  try {
    const input = path.join(dir, `in.${format}`);
    const output = path.join(dir, 'out.wav');
    await writeFile(input, bytes);
    let declared: { sampleRate: number; channels: number } | undefined;
    switch (format) {
      case 'wav':
      case 'mp3':
      case 'flac':
        await tool('sox', ['-V1', input, '-b', '16', output]);
        break;
      case 'pcm':
        await tool('sox', ['-V1', '-t', 'raw', '-r', String(pcmRate), '-e', 'signed', '-b', '16', '-c', '1', input, output]);
        break;
      case 'ogg':
        await tool('opusdec', ['--quiet', input, output]); // at the rate the Opus header names
        break;
      case 'aac':
        declared = adtsHeader(bytes);
        await tool('faad', ['-q', '-o', output, input]);
        break;
      case 'm4a': {
        const track = readMp4Audio(bytes);
        declared = track;
        await writeFile(input, track.adts);
        await tool('faad', ['-q', '-o', output, input]);
        break;
      }
    }
    const wav = await readFile(output);
    const info = parseWav(wav);
    const frames = info.dataBytes / 2 / info.channels;
    const samples = new Int16Array(frames);
    for (let i = 0; i < frames; i++) samples[i] = wav.readInt16LE(info.dataOffset + i * 2 * info.channels);
    return {
      sampleRate: declared?.sampleRate ?? info.sampleRate,
      channels: declared?.channels ?? info.channels,
      seconds: frames / info.sampleRate,
      samples,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function tool(program: string, args: string[]) {
  try {
    await run(program, args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`${program} is missing: .ci/run installs it`, { cause: error });
    throw error;
  }
}

const AAC_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

/** The first ADTS frame header (ISO 14496-3, 1.A.2): profile, rate and channels. */
export function adtsHeader(bytes: Uint8Array): { profile: number; sampleRate: number; channels: number } {
  if (bytes[0] !== 0xff || (bytes[1]! & 0xf0) !== 0xf0) throw new Error('No ADTS sync word at the start');
  return {
    profile: (bytes[2]! >> 6) + 1, // audio object type: 2 is AAC LC
    sampleRate: AAC_RATES[(bytes[2]! >> 2) & 0x0f]!,
    channels: ((bytes[2]! & 1) << 2) | (bytes[3]! >> 6),
  };
}

/** Parses an MP4 with mp4box.js and rewraps its AAC frames as ADTS, which faad2 decodes. */
export function readMp4Audio(bytes: Uint8Array): {
  codec: string;
  sampleRate: number;
  channels: number;
  fragmented: boolean;
  adts: Uint8Array;
} {
  const file = createFile();
  const samples: Sample[] = [];
  let ready: { codec: string; sampleRate: number; channels: number; fragmented: boolean } | undefined;
  file.onReady = (movie) => {
    const track = movie.tracks[0]!;
    ready = {
      codec: track.codec,
      sampleRate: track.audio!.sample_rate,
      channels: track.audio!.channel_count,
      fragmented: movie.isFragmented,
    };
    file.setExtractionOptions(track.id, null, { nbSamples: Number.MAX_SAFE_INTEGER });
    file.start();
  };
  file.onSamples = (_id, _user, found) => samples.push(...found);
  file.appendBuffer(MP4BoxBuffer.fromArrayBuffer(bytes.slice().buffer, 0));
  file.flush();
  if (!ready) throw new Error('mp4box found no movie header');
  const rateIndex = AAC_RATES.indexOf(ready.sampleRate);
  const frames = samples.map((sample) => {
    const data = sample.data!;
    const length = data.length + 7;
    const header = [
      0xff,
      0xf1, // MPEG-4, no CRC
      (1 << 6) | (rateIndex << 2) | (ready!.channels >> 2), // AAC LC
      ((ready!.channels & 3) << 6) | (length >> 11),
      (length >> 3) & 0xff,
      ((length & 7) << 5) | 0x1f,
      0xfc,
    ];
    return Buffer.concat([Buffer.from(header), data]);
  });
  return { ...ready, adts: Buffer.concat(frames) };
}

/** Where each container puts its magic number; raw PCM has none. */
const MAGIC: Partial<Record<AudioFormat, [number, string]>> = {
  wav: [0, 'RIFF'],
  ogg: [0, 'OggS'],
  flac: [0, 'fLaC'],
  m4a: [4, 'ftyp'],
};

/** Whether `bytes` start as a file of `format` does: its magic number, or an MPEG audio frame sync for MP3. */
export function hasContainerMagic(format: AudioFormat, bytes: Uint8Array): boolean {
  if (format === 'mp3') return bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0;
  if (format === 'aac') return bytes[0] === 0xff && (bytes[1]! & 0xf0) === 0xf0;
  const magic = MAGIC[format];
  if (!magic) return true;
  const [offset, text] = magic;
  return Buffer.from(bytes.subarray(offset, offset + text.length)).toString('ascii') === text;
}
