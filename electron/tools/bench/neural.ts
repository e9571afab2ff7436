/**
 * The bench's neural path (issue 31), on a sherpa-onnx model folder: `--model <folder>` (a real
 * one), else both generated models (testing/tiny-vits.ts): the test model, whose synthesis is
 * almost free (the ratios measure the gateway's fixed cost), and the Piper-shaped one, a Piper low
 * voice's decoder with random weights, which costs what a real voice costs (docs/performance.md).
 * - a job against a bare loop of sherpa-onnx-node over the same chunks, in this process, with the
 *   threads and config the model process uses (host.ts);
 * - the first byte of a streamed answer against the bare synthesis of its first sentence.
 * The gateway runs as its own process on a models folder holding the model.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { modelThreads, ttsConfig } from '../../engines/sherpa-onnx/host';
import { readModelFolder } from '../../engines/sherpa-onnx/models';
import { chunkText, DEFAULT_CHUNK_CHARS } from '../../jobs/chunker';
import { exited, spawnGateway, type GatewayProcess } from '../../testing/process';
import { writePiperShapedVits } from '../../testing/piper-shaped-vits';
import { writeTinyVits } from '../../testing/tiny-vits';
import { readEvents } from '../../testing/events';
import { queueJob } from './gateway-probes';

type Tts = import('sherpa-onnx-node').OfflineTts;

export interface NeuralBench {
  /** A model folder; absent: the two generated models (the test model and the Piper-shaped one). */
  model?: string;
  text: string;
  /** The bench's pairing of a baseline and its job (bench.ts), with the goal's name and limit (none: a figure only). */
  paired(name: string, limit: number | undefined, baseline: () => Promise<number>, job: () => Promise<number>): Promise<void>;
}

/** Streamed answers timed per pair: the median of this many, as one request is a few milliseconds. */
const FIRST_BYTE_RUNS = 9;
/** The streamed text: a few sentences, read to the end (an answer broken off stops the model process). */
const STREAM_CHARS = 600;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

async function medianOf(runs: number, once: () => Promise<number>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await once());
  return median(times);
}

/** The voice the gateway lists for the folder: the folder's own, or its first speaker's. */
async function voiceOf(gateway: GatewayProcess, key: string): Promise<{ id: string; language: string }> {
  const engine = (await (await gateway.api('/api/v1/tts/engines/sherpa-onnx')).json()) as {
    voices?: { id: string; language: string }[];
    reason?: string;
  };
  const voice = engine.voices?.find((v) => v.id === `sherpa-onnx:${key}` || v.id === `sherpa-onnx:${key}#0`);
  if (!voice) throw new Error(`The gateway lists no voice of ${key}: ${engine.reason ?? 'not among its voices'}`);
  return voice;
}

/** Milliseconds from the request to the first byte of a streamed WAV answer; the answer is read whole. */
async function firstStreamedByte(gateway: GatewayProcess, text: string, voice: string): Promise<number> {
  const started = performance.now();
  const response = await gateway.api('/api/v1/tts/synthesize', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text, voice, stream: true, format: 'wav' }),
  });
  if (response.status !== 200) throw new Error(`The streamed answer was ${response.status} ${await response.text()}`);
  const reader = response.body!.getReader();
  let first: number | undefined;
  for (let piece = await reader.read(); !piece.done; piece = await reader.read()) first ??= performance.now() - started;
  if (first === undefined) throw new Error('The streamed answer was empty');
  return first;
}

/**
 * What the gateway adds to the bare synthesis, in milliseconds per chunk (or answer), printed with
 * each pair: the test model synthesizes a sentence in about a millisecond, so its ratios are mostly
 * this fixed cost, which a real model's synthesis (tens to hundreds of ms a sentence) dwarfs.
 */
class Overhead {
  private baseline = 0;

  constructor(
    private readonly units: number,
    private readonly unit: string,
  ) {}

  base(ms: number): number {
    this.baseline = ms;
    return ms;
  }

  measured(ms: number): number {
    console.log(`  (the gateway added ${((ms - this.baseline) / this.units).toFixed(1)} ms per ${this.unit})`);
    return ms;
  }
}

function bareSynthesis(tts: Tts, texts: string[]): number {
  const started = performance.now();
  for (const text of texts) tts.generate({ text, sid: 0, speed: 1 });
  return performance.now() - started;
}

/**
 * The bare loops block this process's event loop, for minutes on a real voice (the nine first
 * sentences too, on a loaded machine): past the gateway's keep-alive time (72 s) its idle socket
 * is closed, and the next request would go out on it ("other side closed") unless the close is
 * read first.
 */
const readClosedSockets = () => new Promise((resolve) => setTimeout(resolve, 50));

/**
 * A job from its submission to its being done, in milliseconds, read on the job's event stream,
 * which ends with it. Polling had the gateway answer requests on the cores the model process
 * uses, and saw the end up to one interval late: every 2 % of the time so far, 1-2 % of a job.
 */
async function timedJob(gateway: GatewayProcess, text: string, voice: string): Promise<number> {
  const started = performance.now();
  const id = await queueJob(gateway, text, voice);
  const events = await gateway.api(`/api/v1/tts/jobs/${id}/events`);
  if (!events.ok) throw new Error(`The bench job's events answered ${events.status} ${await events.text()}`);
  let last = '';
  for await (const { event } of readEvents(events)) last = event;
  if (last !== 'done') throw new Error(`The bench job's events ended with "${last || 'nothing'}"`);
  return performance.now() - started;
}

export async function benchNeural(bench: NeuralBench): Promise<void> {
  if (bench.model) return benchModel(bench, async () => path.resolve(bench.model!), '', true);
  // The test model's sentence takes under a millisecond: its ratios are the gateway's fixed cost
  // over almost nothing, printed as figures. The goals are judged where synthesis costs what a
  // voice's does (docs/performance.md).
  await benchModel(bench, (models) => writeTinyVits(models), ' (test model)', false);
  await benchModel(bench, writePiperShapedVits, ' (Piper-shaped model)', true);
}

/** Both pairs on one model folder; `named` tells each model's rows apart, `judged` whether they hold the goals. */
async function benchModel(
  { model, text, paired }: NeuralBench,
  write: (modelsDir: string) => Promise<string>,
  named: string,
  judged: boolean,
): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'orator-bench-neural-'));
  const folder = await write(path.join(work, 'models'));
  const dataDir = path.join(work, 'data');
  const gateway = await spawnGateway(['--data-dir', dataDir, '--models-dir', path.dirname(folder)]);
  try {
    const { spec } = (await readModelFolder(folder))!;
    const threads = modelThreads();
    const { OfflineTts } = (await import('sherpa-onnx-node')).default;
    const tts = new OfflineTts(ttsConfig(spec, threads));
    const voice = await voiceOf(gateway, path.basename(folder));
    const chunks = chunkText(text, voice.language).map((c) => c.text);
    const streamed = text.slice(0, STREAM_CHARS);
    const firstSentence = chunkText(streamed, voice.language, DEFAULT_CHUNK_CHARS, 1)[0]!.text;
    console.log(
      `\nneural: ${voice.id} (${spec.kind}, ${model ? folder : `generated${named}`}), ${threads} threads, ` +
        `${text.length} characters in ${chunks.length} chunks`,
    );
    // warm both: the model loaded in this process and in the gateway's model process
    bareSynthesis(tts, chunks.slice(0, 2));
    await readClosedSockets();
    await timedJob(gateway, chunks.slice(0, 2).join(' '), voice.id);

    console.log(`job on ${voice.id} after a bare loop of sherpa-onnx-node over its ${chunks.length} chunks:`);
    const job = new Overhead(chunks.length, 'chunk');
    await paired(
      `neural job / bare sherpa-onnx loop${named}`,
      judged ? 1.1 : undefined,
      async () => {
        const ms = job.base(bareSynthesis(tts, chunks));
        await readClosedSockets();
        return ms;
      },
      async () => job.measured(await timedJob(gateway, text, voice.id)),
    );
    console.log(`first streamed byte after the bare synthesis of the first sentence (median of ${FIRST_BYTE_RUNS} each):`);
    const first = new Overhead(1, 'answer');
    await paired(
      `neural first streamed byte / bare first sentence${named}`,
      judged ? 1.2 : undefined,
      async () => {
        const ms = first.base(await medianOf(FIRST_BYTE_RUNS, async () => bareSynthesis(tts, [firstSentence])));
        await readClosedSockets();
        return ms;
      },
      async () => first.measured(await medianOf(FIRST_BYTE_RUNS, () => firstStreamedByte(gateway, streamed, voice.id))),
    );
  } finally {
    gateway.child.kill('SIGTERM');
    await exited(gateway.child);
    await rm(work, { recursive: true, force: true });
  }
}
