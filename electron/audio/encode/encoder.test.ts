import { beforeAll, describe, expect, it } from 'vitest';
import { espeakWasm } from '../../engines/espeak-ng/wasm';
import type { Pcm } from '../pcm';
import { adtsHeader, decodeIndependently, hasContainerMagic, readMp4Audio } from '../../testing/decoders';
import { prose } from '../../testing/prose';
import { concatBytes } from './sink';
import { createEncoder, EncoderOptionError, type StreamingEncoder } from './encoder';
import { AUDIO_FORMATS, type AudioFormat } from './formats';

let speech: Pcm;
const seconds = () => speech.samples.length / speech.sampleRate;

beforeAll(async () => {
  speech = await espeakWasm.synthesize({ text: prose(400), voice: 'en-us', rate: 1, pitch: 1, volume: 1 });
});

/** Encodes `samples` pushed `piece` samples at a time; returns the whole file and what finish() gave. */
async function encode(encoder: StreamingEncoder, samples: Int16Array, piece: number) {
  const parts: Uint8Array[] = [];
  for (let at = 0; at < samples.length; at += piece) parts.push(await encoder.push(samples.subarray(at, at + piece)));
  const tail = await encoder.finish();
  return { file: concatBytes([...parts, tail]), tail };
}

function level(samples: Int16Array) {
  let peak = 0;
  let energy = 0;
  for (const s of samples) {
    peak = Math.max(peak, Math.abs(s));
    energy += s * s;
  }
  return { peak, rms: Math.sqrt(energy / Math.max(1, samples.length)) };
}

/** Pearson correlation of two signals over their common length. */
function correlation(a: Int16Array, b: Int16Array): number {
  const n = Math.min(a.length, b.length);
  const sum = { a: 0, b: 0, aa: 0, bb: 0, ab: 0 };
  for (let i = 0; i < n; i++) {
    sum.a += a[i]!;
    sum.b += b[i]!;
    sum.aa += a[i]! ** 2;
    sum.bb += b[i]! ** 2;
    sum.ab += a[i]! * b[i]!;
  }
  return (n * sum.ab - sum.a * sum.b) / Math.sqrt((n * sum.aa - sum.a ** 2) * (n * sum.bb - sum.b ** 2));
}

/** Formats encoded in this thread: a push returns its own audio's bytes. */
const IN_THREAD: AudioFormat[] = ['wav', 'pcm', 'mp3', 'ogg'];

/** How much longer a decoder plays each format than the input: codec delay and frame padding. */
const EXTRA_SECONDS: Record<AudioFormat, number> = { wav: 0, pcm: 0.001, flac: 0, ogg: 0.001, mp3: 0.08, aac: 0.05, m4a: 0.1 };

describe('streaming encoders, checked by independent decoders', () => {
  it('speech is long enough to mean something', () => {
    expect(seconds()).toBeGreaterThan(20);
    expect(speech.sampleRate).toBe(22050);
  });

  it.each(AUDIO_FORMATS)('%s: the decoder reads the rate, one channel, the duration and audible speech', async (format) => {
    const encoder = await createEncoder(format, { sampleRate: speech.sampleRate });
    const { file } = await encode(encoder, speech.samples, speech.sampleRate); // a second at a time
    const decoded = await decodeIndependently(format, file);
    const expectedRate = { ogg: 24000, pcm: 24000 }[format as string] ?? 22050;
    expect(encoder.sampleRate).toBe(expectedRate);
    expect(decoded.sampleRate).toBe(expectedRate);
    expect(decoded.channels).toBe(1);
    expect(decoded.seconds).toBeGreaterThanOrEqual(seconds() - 0.001);
    expect(decoded.seconds).toBeLessThanOrEqual(seconds() + EXTRA_SECONDS[format]);
    const { peak, rms } = level(decoded.samples);
    expect(peak).toBeGreaterThan(5000);
    expect(rms).toBeGreaterThan(300);
  });

  it('names its content type and extension per format', async () => {
    const expected: Record<AudioFormat, string> = {
      wav: 'audio/wav .wav',
      mp3: 'audio/mpeg .mp3',
      ogg: 'audio/ogg .ogg',
      flac: 'audio/flac .flac',
      m4a: 'audio/mp4 .m4a',
      aac: 'audio/aac .aac',
      pcm: 'audio/pcm .pcm',
    };
    for (const format of AUDIO_FORMATS) {
      const encoder = await createEncoder(format, { sampleRate: 22050 });
      expect(`${encoder.contentType} .${encoder.extension}`).toBe(expected[format]);
      await encoder.close();
    }
  });

  it.each(AUDIO_FORMATS)('%s: many small pushes give the same audio as one', async (format) => {
    const whole = await encode(await createEncoder(format, { sampleRate: speech.sampleRate }), speech.samples, speech.samples.length);
    const pieces = await encode(await createEncoder(format, { sampleRate: speech.sampleRate }), speech.samples, 331);
    const [one, many] = await Promise.all([decodeIndependently(format, whole.file), decodeIndependently(format, pieces.file)]);
    expect(many.seconds).toBe(one.seconds);
    // The same decoded samples; the files may differ in an Ogg serial number or an MP4 creation time
    expect(Buffer.from(many.samples.buffer).equals(Buffer.from(one.samples.buffer))).toBe(true);
  });

  it.each(AUDIO_FORMATS)('%s: bytes leave as audio comes in, finish() holds back only the last seconds', async (format) => {
    const encoder = await createEncoder(format, { sampleRate: speech.sampleRate });
    const parts: Uint8Array[] = [];
    // A second of audio every 20 ms, as a synthesis at least that slow would bring it; for worker
    // threads every 100 ms, the time AAC (the slowest, about 13–20× realtime) takes to encode it,
    // so that what is measured is the encoder's streaming, not the machine's load.
    const pause = IN_THREAD.includes(format) ? 20 : 100;
    for (let at = 0; at < speech.samples.length; at += speech.sampleRate) {
      parts.push(await encoder.push(speech.samples.subarray(at, at + speech.sampleRate)));
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
    const tail = await encoder.finish();
    const bytesPerSecond = concatBytes([...parts, tail]).length / seconds();
    if (IN_THREAD.includes(format)) expect(parts.every((bytes) => bytes.length > 0)).toBe(true);
    // Worker threads: nothing until the worker has started, then a push brings what the worker has
    // done meanwhile: most pushes on a quiet machine, fewer on a busy one.
    else expect(parts.filter((bytes) => bytes.length > 0).length).toBeGreaterThan(parts.length / 4);
    // A worker on a busy machine lags by a few seconds; an encoder that held the file back would hold all 20+ s
    expect(tail.length).toBeLessThan(5 * bytesPerSecond);
  });

  it('pcm is the 24 kHz resampling of the voice: as long to the millisecond, in phase with sox’s', async () => {
    const encoder = await createEncoder('pcm', { sampleRate: speech.sampleRate });
    const { file } = await encode(encoder, speech.samples, 1000);
    const ours = await decodeIndependently('pcm', file);
    expect(Math.abs(ours.seconds - seconds())).toBeLessThan(0.001);
    const wav = await createEncoder('wav', { sampleRate: speech.sampleRate });
    const reference = await decodeIndependently('wav', (await encode(wav, speech.samples, speech.samples.length)).file);
    const soxResampled = await resampleWithSox(reference.samples, speech.sampleRate, 24000);
    expect(correlation(ours.samples, soxResampled)).toBeGreaterThan(0.99);
  });

  it('m4a is fragmented MP4 with AAC LC, aac is ADTS with AAC LC', async () => {
    const m4a = await encode(await createEncoder('m4a', { sampleRate: 22050 }), speech.samples, 22050);
    const track = readMp4Audio(m4a.file);
    expect(track).toMatchObject({ codec: 'mp4a.40.2', sampleRate: 22050, channels: 1, fragmented: true });
    expect(Buffer.from(m4a.file.subarray(4, 8)).toString('ascii')).toBe('ftyp');
    const aac = await encode(await createEncoder('aac', { sampleRate: 22050 }), speech.samples, 22050);
    expect(adtsHeader(aac.file)).toEqual({ profile: 2, sampleRate: 22050, channels: 1 });
  });

  it('puts a magic number where each format wants one', async () => {
    for (const format of AUDIO_FORMATS) {
      const { file } = await encode(await createEncoder(format, { sampleRate: 22050 }), speech.samples.subarray(0, 22050), 22050);
      expect(hasContainerMagic(format, file)).toBe(true);
      // a check that can fail: the bytes of another format do not pass for this one
      if (format !== 'pcm') expect(hasContainerMagic(format, new Uint8Array(16))).toBe(false);
    }
  });
});

describe('encoder options', () => {
  it('the bitrate sets the size of lossy formats', async () => {
    for (const [format, low, high] of [
      ['mp3', 32, 64],
      ['ogg', 24, 48],
      ['m4a', 32, 64],
    ] as const) {
      const small = await encode(await createEncoder(format, { sampleRate: 22050, bitrateKbps: low }), speech.samples, 22050);
      const large = await encode(await createEncoder(format, { sampleRate: 22050, bitrateKbps: high }), speech.samples, 22050);
      expect(large.file.length / small.file.length).toBeGreaterThan(1.4);
      expect((small.file.length * 8) / seconds() / 1000).toBeLessThan(low * 1.5);
    }
  });

  it('uses the documented defaults', async () => {
    const defaults: Partial<Record<AudioFormat, number | undefined>> = { mp3: 128, ogg: 48, m4a: 64, aac: 64, flac: undefined };
    for (const [format, kbps] of Object.entries(defaults)) {
      const encoder = await createEncoder(format as AudioFormat, { sampleRate: 22050 });
      expect(encoder.bitrateKbps).toBe(kbps);
      await encoder.close();
    }
  });

  it('refuses what no encoder can do, with a message that says what would work', async () => {
    await expect(createEncoder('mp3', { sampleRate: 22050, bitrateKbps: 100 })).rejects.toThrow(/one of 8, 16, .* 320 kbps, not 100/);
    await expect(createEncoder('ogg', { sampleRate: 22050, bitrateKbps: 1000 })).rejects.toThrow(EncoderOptionError);
    await expect(createEncoder('flac', { sampleRate: 22050, bitrateKbps: 128 })).rejects.toThrow('flac is not lossy');
    await expect(createEncoder('wav', { sampleRate: 0 })).rejects.toThrow(EncoderOptionError);
    await expect(createEncoder('opus' as AudioFormat, { sampleRate: 22050 })).rejects.toThrow('Unknown audio format "opus"');
  });

  it('resamples rates a codec does not take, up to the next one it does', async () => {
    const tone = new Int16Array(22050).map((_, i) => Math.round(8000 * Math.sin(i / 3)));
    for (const [format, rate, expected] of [
      ['mp3', 11025, 11025],
      ['ogg', 11025, 12000],
      ['m4a', 20000, 22050],
      ['flac', 11025, 16000],
    ] as const) {
      const encoder = await createEncoder(format, { sampleRate: rate });
      expect(encoder.sampleRate).toBe(expected);
      const decoded = await decodeIndependently(format, (await encode(encoder, tone, 4000)).file);
      expect(decoded.seconds).toBeGreaterThanOrEqual(tone.length / rate - 0.001);
      expect(decoded.seconds).toBeLessThan(tone.length / rate + 0.15); // LAME's delay and padding: 3 frames at 11 kHz
    }
  });

  it('a closed encoder takes no more audio', async () => {
    const encoder = await createEncoder('m4a', { sampleRate: 22050 });
    await encoder.push(speech.samples.subarray(0, 22050));
    await encoder.close();
    await expect(encoder.push(speech.samples.subarray(0, 100))).rejects.toThrow('closed');
    await expect(encoder.finish()).rejects.toThrow('closed');
  });

  it('an MP3 encoder reused after another stream, finished or abandoned, encodes as a new one', async () => {
    const mp3 = (rate: number, kbps: number) => createEncoder('mp3', { sampleRate: rate, bitrateKbps: kbps });
    const first = await encode(await mp3(22050, 64), speech.samples, 4096);
    const abandoned = await mp3(16000, 32); // the instance the next stream gets, left in the middle of a stream
    await abandoned.push(speech.samples.subarray(0, 10_000));
    await abandoned.close();
    const again = await encode(await mp3(22050, 64), speech.samples, 4096);
    expect(Buffer.from(again.file).equals(Buffer.from(first.file))).toBe(true);
  });
});

async function resampleWithSox(samples: Int16Array, from: number, to: number): Promise<Int16Array> {
  const { spawnSync } = await import('node:child_process');
  const args = ['-V1', '-t', 'raw', '-r', String(from), '-e', 'signed', '-b', '16', '-c', '1', '-', '-t', 'raw', '-r', String(to), '-'];
  const result = spawnSync('sox', args, {
    input: Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength),
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`sox failed: ${result.stderr}`);
  const out = result.stdout;
  return new Int16Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.length));
}
