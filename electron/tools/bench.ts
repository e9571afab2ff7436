/**
 * `npm run bench`: the job engine against the raw engine, measured in one run on the same text.
 * 1. raw: the embedded eSpeak NG (WASM) synthesizing 100,000 characters in this process, one call;
 * 2. gateway: the same text as one job through the real gateway (chunked, worker threads);
 * 3. latency of a 100-character inline request on an idle gateway and while such a job runs.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { espeakWasm } from '../engines/espeak-ng/wasm';
import { configFromArgs } from '../gateway/config';
import { startGateway } from '../gateway/start';
import { prose } from '../testing/prose';

const TEXT = prose(100_000);
const INLINE = prose(100);
const SAMPLES = 60;

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

async function rawEngine(): Promise<{ ms: number; audioSeconds: number }> {
  await espeakWasm.synthesize({ text: 'Warm up.', voice: 'en-us', rate: 1, pitch: 1, volume: 1 });
  const started = performance.now();
  const pcm = await espeakWasm.synthesize({ text: TEXT, voice: 'en-us', rate: 1, pitch: 1, volume: 1 });
  return { ms: performance.now() - started, audioSeconds: pcm.samples.length / pcm.sampleRate };
}

async function main() {
  console.log(`Orator bench: ${os.availableParallelism()} cores, Node ${process.version}`);
  const raw = await rawEngine();
  console.log(
    `raw engine (eSpeak NG WASM, one process, one call): ${seconds(raw.ms)} for ${TEXT.length} chars → ${raw.audioSeconds.toFixed(0)} s of audio`,
  );

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-bench-'));
  const gateway = await startGateway(
    { ...configFromArgs([], {}), port: 0, dataDir },
    { workerFile: path.resolve('dist/synth-worker.mjs') },
  );
  const auth = { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' };
  const post = (body: object) =>
    fetch(`${gateway.url}/api/v1/tts/synthesize`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
  const inline = async () => {
    const started = performance.now();
    await (await post({ text: INLINE })).arrayBuffer();
    return performance.now() - started;
  };
  const jobStatus = async (id: string) =>
    ((await (await fetch(`${gateway.url}/api/v1/tts/jobs/${id}`, { headers: auth })).json()) as { status: string }).status;
  const queueJob = async () => ((await (await post({ text: TEXT, mode: 'job' })).json()) as { job_id: string }).job_id;
  try {
    // 2. the job alone, nothing else asking the gateway for work
    const started = performance.now();
    const alone = await queueJob();
    let status = 'running';
    while (status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 25));
      status = await jobStatus(alone);
    }
    const jobMs = performance.now() - started;
    if (status !== 'done') throw new Error(`The bench job ended ${status}`);
    console.log(`gateway job (${os.availableParallelism()} worker threads, chunks of ≤ 500 chars): ${seconds(jobMs)}`);
    console.log(`ratio gateway job / raw engine: ${(jobMs / raw.ms).toFixed(2)} (below 1: parallel chunks beat one process)`);

    // 3. inline latency, idle and while the same job runs again
    for (let i = 0; i < 5; i++) await inline(); // warm the HTTP path
    const idle: number[] = [];
    for (let i = 0; i < SAMPLES; i++) idle.push(await inline());
    const busyJob = await queueJob();
    const busy: number[] = [];
    while (busy.length < SAMPLES && (await jobStatus(busyJob)) === 'running') busy.push(await inline());
    await fetch(`${gateway.url}/api/v1/tts/jobs/${busyJob}`, { method: 'DELETE', headers: auth });
    const line = (name: string, xs: number[]) =>
      `${name}: p50 ${percentile(xs, 50).toFixed(0)} ms, p99 ${percentile(xs, 99).toFixed(0)} ms (${xs.length} requests)`;
    console.log(line('inline 100 chars, idle gateway', idle));
    console.log(line('inline 100 chars, during a 100k-char job', busy));
  } finally {
    await gateway.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
