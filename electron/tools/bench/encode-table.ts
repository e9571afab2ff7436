/**
 * Speed and size of every output format on real speech: Debian's GPL-3 text (or prose where it is
 * missing) spoken by the embedded eSpeak NG, pushed a second at a time as a job would. `minutes`
 * streams that many minutes (the speech looped) through each encoder and reports the memory it
 * grew by, to show nothing keeps the whole audio. With a system ffmpeg on the PATH, it encodes the
 * same audio for comparison. Used by `npm run bench` and `npm run bench:encode`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createEncoder } from '../../audio/encode/encoder';
import { AUDIO_FORMATS, type AudioFormat } from '../../audio/encode/formats';
import { encodeWav } from '../../audio/wav';
import { espeakWasm } from '../../engines/espeak-ng/wasm';
import { prose } from '../../testing/prose';

const LICENCE = '/usr/share/common-licenses/GPL-3';

/** What a system ffmpeg is asked for, to compare like with like (same bitrates, mono, same rates). */
const FFMPEG_ARGS: Record<AudioFormat, string[]> = {
  wav: ['-f', 'wav'],
  mp3: ['-c:a', 'libmp3lame', '-b:a', '128k', '-f', 'mp3'],
  ogg: ['-c:a', 'libopus', '-b:a', '48k', '-ar', '24000', '-f', 'ogg'],
  flac: ['-c:a', 'flac', '-f', 'flac'],
  m4a: ['-c:a', 'aac', '-b:a', '64k', '-movflags', 'frag_keyframe+empty_moov', '-f', 'mp4'],
  aac: ['-c:a', 'aac', '-b:a', '64k', '-f', 'adts'],
  pcm: ['-ar', '24000', '-f', 's16le'],
};

function text(chars: number): string {
  const source = existsSync(LICENCE) ? readFileSync(LICENCE, 'utf8').replace(/\s+/g, ' ').trim() : prose(chars);
  return source.slice(0, chars);
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

async function encodeStream(format: AudioFormat, samples: Int16Array, sampleRate: number, totalSamples: number) {
  const encoder = await createEncoder(format, { sampleRate });
  let bytes = 0;
  let peakRss = process.memoryUsage().rss;
  const started = performance.now();
  for (let sent = 0; sent < totalSamples; sent += sampleRate) {
    const at = sent % samples.length;
    bytes += (await encoder.push(samples.subarray(at, Math.min(samples.length, at + sampleRate)))).length;
    if (sent % (60 * sampleRate) === 0) peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }
  bytes += (await encoder.finish()).length;
  return { ms: performance.now() - started, bytes, peakRss, encoder };
}

function ffmpegTime(format: AudioFormat, wav: Buffer): { ms: number; bytes: number } {
  const started = performance.now();
  const result = spawnSync('ffmpeg', ['-v', 'error', '-i', 'pipe:0', '-ac', '1', ...FFMPEG_ARGS[format], 'pipe:1'], {
    input: wav,
    maxBuffer: 2 ** 31,
  });
  if (result.status !== 0) throw new Error(`ffmpeg failed for ${format}: ${result.stderr}`);
  return { ms: performance.now() - started, bytes: result.stdout.length };
}

/** Prints the table (and, with `minutes`, the streaming table) with `log`. */
export async function encodeTable({
  chars,
  minutes = 0,
  log = console.log,
}: {
  chars: number;
  minutes?: number;
  log?: (line: string) => void;
}) {
  const words = text(chars);
  const started = performance.now();
  const speech = await espeakWasm.synthesize({ text: words, voice: 'en-us', rate: 1, pitch: 1, volume: 1 });
  const seconds = speech.samples.length / speech.sampleRate;
  log(
    `${words.length} characters of ${existsSync(LICENCE) ? 'GPL-3' : 'prose'} → ${seconds.toFixed(0)} s of eSpeak NG speech at ${speech.sampleRate} Hz (synthesized in ${((performance.now() - started) / 1000).toFixed(1)} s)\n`,
  );
  const hasFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0;
  const wav = hasFfmpeg ? encodeWav(speech) : undefined;
  log(
    '| format | rate | bitrate | encode time | × realtime | size | kbps | size of 100,000 chars |' +
      (hasFfmpeg ? ' ffmpeg × realtime | ffmpeg size |' : ''),
  );
  log('|---|---|---|---|---|---|---|---|' + (hasFfmpeg ? '---|---|' : ''));
  for (const format of AUDIO_FORMATS) {
    const { ms, bytes, encoder } = await encodeStream(format, speech.samples, speech.sampleRate, speech.samples.length);
    const cells = [
      format,
      `${encoder.sampleRate} Hz`,
      encoder.bitrateKbps ? `${encoder.bitrateKbps} kbps` : 'lossless',
      `${(ms / 1000).toFixed(2)} s`,
      `${Math.round((seconds * 1000) / ms)}×`,
      mib(bytes),
      ((bytes * 8) / seconds / 1000).toFixed(1),
      mib((bytes * 100_000) / words.length),
    ];
    if (wav) {
      const ffmpeg = ffmpegTime(format, wav);
      cells.push(`${Math.round((seconds * 1000) / ffmpeg.ms)}×`, mib(ffmpeg.bytes));
    }
    log(`| ${cells.join(' | ')} |`);
  }
  if (!hasFfmpeg) log('\n(no ffmpeg on the PATH: no comparison)');

  if (minutes > 0) {
    log(`\nStreaming ${minutes} min of audio (the speech looped) through each encoder, a second per push:`);
    log('| format | × realtime | output | RSS before | peak RSS |');
    log('|---|---|---|---|---|');
    for (const format of AUDIO_FORMATS) {
      const before = process.memoryUsage().rss;
      const { ms, bytes, peakRss } = await encodeStream(format, speech.samples, speech.sampleRate, minutes * 60 * speech.sampleRate);
      log(`| ${format} | ${Math.round((minutes * 60_000) / ms)}× | ${mib(bytes)} | ${mib(before)} | ${mib(peakRss)} |`);
    }
  }
}
