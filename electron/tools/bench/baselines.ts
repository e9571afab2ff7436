/** The bench's baselines: what a user could do without Orator, on the same text. */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** `espeak-ng -v en-us -f text.txt -w out.wav`: the whole text in one process; milliseconds. */
export async function espeakCliOneProcess(text: string): Promise<number> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'orator-bench-cli-'));
  try {
    const textFile = path.join(dir, 'text.txt');
    await writeFile(textFile, text);
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      const child = spawn('espeak-ng', ['-v', 'en-us', '-f', textFile, '-w', path.join(dir, 'out.wav')], { stdio: 'ignore' });
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`espeak-ng exited with ${code}`))));
    });
    return performance.now() - started;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Each thread imports the built worker bundle (the same WASM package and wrapper the pool runs),
 * synthesizes a warm-up sentence, then takes chunks from a shared counter until none are left.
 */
const LOOP = `
const { workerData, parentPort } = require('node:worker_threads');
const request = (text) => ({ kind: 'synthesize', engine: 'espeak-ng', request: { text, voice: 'en-us', rate: 1, pitch: 1, volume: 1 } });
(async () => {
  const { default: run } = await import(workerData.bundle);
  await run(request('Warm up.'));
  parentPort.postMessage('ready');
  await new Promise((resolve) => parentPort.once('message', resolve));
  const next = new Int32Array(workerData.counter);
  for (let i = Atomics.add(next, 0, 1); i < workerData.chunks.length; i = Atomics.add(next, 0, 1)) {
    await run(request(workerData.chunks[i]));
  }
  parentPort.postMessage('done');
})();
`;

/** `threads` bare worker_threads looping over the chunks with the embedded eSpeak NG; milliseconds, warm-up excluded. */
export async function bareThreadLoop(chunks: string[], threads: number, bundle = path.resolve('dist/synth-worker.mjs')): Promise<number> {
  const counter = new SharedArrayBuffer(4);
  const workers = Array.from(
    { length: threads },
    () => new Worker(LOOP, { eval: true, workerData: { bundle: pathToFileURL(bundle).href, chunks, counter } }),
  );
  const message = (worker: Worker) =>
    new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
    });
  try {
    await Promise.all(workers.map(message));
    const started = performance.now();
    const finished = workers.map(message);
    for (const worker of workers) worker.postMessage('go');
    await Promise.all(finished);
    return performance.now() - started;
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/**
 * FFmpeg making the same book from the same WAV, read `copies` times by its concat demuxer, with
 * the same chapters (ffmetadata), native AAC or libmp3lame at the same bitrate, `moov` first for
 * M4B. It measures no loudness and limits no peaks, so it does less than an export: a lower bound.
 * Wall and CPU seconds and peak RSS from GNU time.
 */
export async function ffmpegAudiobook(
  wav: string,
  copies: number,
  partSeconds: number,
  format: 'm4b' | 'mp3',
  bitrateKbps: number,
): Promise<{ seconds: number; cpuSeconds: number; maxRssMb: number; bytes: number }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'orator-bench-ffmpeg-'));
  try {
    const list = path.join(dir, 'list.txt');
    const meta = path.join(dir, 'meta.txt');
    await writeFile(list, `file '${wav}'\n`.repeat(copies));
    const chapters = Array.from(
      { length: copies },
      (_, i) =>
        `[CHAPTER]\nTIMEBASE=1/1000\nSTART=${i * partSeconds * 1000}\nEND=${(i + 1) * partSeconds * 1000}\ntitle=Chapter ${i + 1}\n`,
    );
    await writeFile(meta, `;FFMETADATA1\ntitle=A Long Book\n${chapters.join('')}`);
    const out = path.join(dir, `book.${format}`);
    const codec =
      format === 'm4b'
        ? ['-c:a', 'aac', '-threads', '1', '-movflags', '+faststart', '-f', 'mp4']
        : ['-c:a', 'libmp3lame', '-id3v2_version', '3', '-f', 'mp3'];
    const args = ['-f', '%e %U %S %M', 'ffmpeg', '-v', 'error', '-f', 'concat', '-safe', '0', '-i', list, '-i', meta];
    args.push('-map', '0:a', '-map_metadata', '1', '-map_chapters', '1', '-b:a', `${bitrateKbps}k`, ...codec, out);
    const stderr = await new Promise<string>((resolve, reject) => {
      const child = spawn('/usr/bin/time', args, { stdio: ['ignore', 'ignore', 'pipe'] });
      let text = '';
      child.stderr.on('data', (d: Buffer) => (text += d.toString()));
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`ffmpeg exited with ${code}: ${text}`))));
    });
    const [seconds, user, system, maxRssKb] = stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
    return { seconds: seconds!, cpuSeconds: user! + system!, maxRssMb: maxRssKb! / 1024, bytes: (await stat(out)).size };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
