/** The bench's baselines: what a user could do without Orator, on the same text. */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
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
