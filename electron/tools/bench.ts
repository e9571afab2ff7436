/**
 * `npm run bench [-- --long-chars 1000000 --encode-chars 10000 --pairs 3]`: every goal of issue 12
 * in one run, on Debian's licence texts (paragraphs unwrapped), each against its baseline (jobs in
 * pairs with theirs, see `paired`):
 * 1. a job on the system eSpeak NG against `espeak-ng -f` reading the whole text in one process;
 * 2. a job on the embedded eSpeak NG against bare worker_threads looping over the same chunks with
 *    the same WASM package, as many threads as the pool;
 * 3. inline 100-char p99 on an idle gateway and while a long job runs;
 * 4. the gateway's resident set idle and at its peak during the long job (1,000,000 chars);
 * 5. the time a player takes to get the long job's peaks and its first seconds of audio;
 * 6. encoding speed and size per output format.
 * Then issue 31's neural path (bench/neural.ts, `--neural-chars`, `--model <folder>`; `--neural-only`
 * runs it alone):
 * 7. a job on a sherpa-onnx model against a bare loop of sherpa-onnx-node, same chunks and threads;
 * 8. the first byte of a streamed answer against the bare synthesis of its first sentence.
 * The gateway runs as its own process (`node dist/serve.mjs`), so its memory is its own.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chunkText } from '../jobs/chunker';
import { exited, spawnGateway } from '../testing/process';
import { benchText } from '../testing/prose';
import { bareThreadLoop, espeakCliOneProcess } from './bench/baselines';
import { encodeTable } from './bench/encode-table';
import { inlineMs, jobDone, percentile, queueJob, RssSampler, timedJob, timeToPlayer, jobStatus } from './bench/gateway-probes';
import { benchNeural } from './bench/neural';

const { values } = parseArgs({
  options: {
    'long-chars': { type: 'string', default: '1000000' },
    'encode-chars': { type: 'string', default: '10000' },
    pairs: { type: 'string', default: '3' },
    'neural-chars': { type: 'string', default: '20000' },
    model: { type: 'string' },
    'neural-only': { type: 'boolean', default: false },
  },
});
const CHARS = 100_000;
const LONG_CHARS = Math.max(CHARS, Number(values['long-chars']));
const TEXT = benchText(CHARS);
const INLINE = benchText(200).slice(100, 200);
const SAMPLES = 60;
const THREADS = Math.min(os.availableParallelism(), 16);
const PAIRS = Number(values.pairs);
if (!Number.isInteger(PAIRS) || PAIRS < 1) throw new Error(`--pairs takes a whole number from 1, not "${values.pairs}"`);

const s = (ms: number) => (ms < 1000 ? `${ms.toFixed(1)} ms` : `${(ms / 1000).toFixed(2)} s`);
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
const goals: string[] = [];
function goal(name: string, value: number, limit: number | undefined, detail: string) {
  const judged = limit === undefined ? '— | figure only' : `≤ ${limit} | ${value <= limit ? 'met' : 'missed'}`;
  goals.push(`| ${name} | ${value.toFixed(2)} | ${judged} | ${detail} |`);
}

/**
 * A job against its baseline in `PAIRS` pairs, each job timed right after its own baseline run:
 * on a shared machine (other tenants take a third of the cores at times, `st` in top) a baseline
 * timed minutes before its job moves the ratio more than anything the gateway does. The goal is
 * the median pair's ratio; every pair is printed, and the spread goes in the table.
 */
async function paired(name: string, limit: number | undefined, baseline: () => Promise<number>, job: () => Promise<number>) {
  const pairs: { base: number; job: number; ratio: number }[] = [];
  for (let i = 0; i < PAIRS; i++) {
    const base = await baseline();
    const ms = await job();
    pairs.push({ base, job: ms, ratio: ms / base });
    console.log(`  pair ${i + 1}: baseline ${s(base)}, job ${s(ms)} → ${(ms / base).toFixed(2)}×`);
  }
  const sorted = pairs.sort((a, b) => a.ratio - b.ratio);
  const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
  const spread = `${sorted[0]!.ratio.toFixed(2)}–${sorted.at(-1)!.ratio.toFixed(2)}× over ${PAIRS}`;
  goal(name, median.ratio, limit, `${s(median.job)} / ${s(median.base)}; ${spread}`);
}

async function main() {
  printMachine();
  if (!values['neural-only']) await benchEmbedded();
  await benchNeural({ model: values.model, text: benchText(Number(values['neural-chars'])), paired });
  console.log('\n| goal | measured | limit | | figures |\n|---|---|---|---|---|');
  for (const row of goals) console.log(row);
}

function printMachine() {
  console.log(
    `Orator bench: ${os.cpus()[0]?.model}, ${THREADS} threads, Node ${process.version}, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

/** Issue 12's goals: the embedded and system eSpeak NG, latency, memory, the player, encoding. */
async function benchEmbedded() {
  console.log(`text: ${CHARS} characters of Debian's licences, paragraphs unwrapped; long job: ${LONG_CHARS} characters\n`);

  const chunks = chunkText(TEXT, 'en-US').map((c) => c.text);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-bench-'));
  const gateway = await spawnGateway(['--data-dir', dataDir, '--workers', String(THREADS)]);
  const rss = new RssSampler(gateway.child.pid!);
  try {
    const idleRss = await RssSampler.settled(gateway.child.pid!);
    console.log(`gateway RSS idle after start: ${mb(idleRss)}`);
    // warm both engines on every thread (WASM compiled, program cached) with jobs of a few chunks
    await timedJob(gateway, TEXT.slice(0, 3000));
    await timedJob(gateway, TEXT.slice(0, 3000), 'espeak-ng-system:en-us');
    rss.reset();

    console.log('job on espeak-ng-system:en-us after `espeak-ng -v en-us -f text.txt -w out.wav`, one process:');
    await paired(
      'system-engine job / CLI in one process',
      0.6,
      () => espeakCliOneProcess(TEXT),
      async () => (await timedJob(gateway, TEXT, 'espeak-ng-system:en-us')).ms,
    );
    console.log(`job on espeak-ng:en-us (embedded) after a bare loop of ${THREADS} worker_threads over its ${chunks.length} chunks:`);
    await paired(
      'embedded job / bare thread loop',
      1.1,
      () => bareThreadLoop(chunks, THREADS),
      async () => (await timedJob(gateway, TEXT)).ms,
    );
    console.log(`gateway RSS peak during the 100k jobs: ${mb(rss.peak())}`);

    for (let i = 0; i < 5; i++) await inlineMs(gateway, INLINE); // warm the HTTP path
    const idle: number[] = [];
    for (let i = 0; i < SAMPLES; i++) idle.push(await inlineMs(gateway, INLINE));

    rss.reset();
    const longStarted = performance.now();
    const long = await queueJob(gateway, benchText(LONG_CHARS));
    const busy: number[] = [];
    while (busy.length < SAMPLES && (await jobStatus(gateway, long)) === 'running') busy.push(await inlineMs(gateway, INLINE));
    await jobDone(gateway, long);
    const longMs = performance.now() - longStarted;
    const longRss = rss.peak();
    console.log(`long job, ${LONG_CHARS} chars, embedded: ${s(longMs)}; gateway RSS peak ${mb(longRss)}`);

    const line = (name: string, xs: number[]) =>
      `${name}: p50 ${percentile(xs, 50).toFixed(0)} ms, p99 ${percentile(xs, 99).toFixed(0)} ms (${xs.length} requests)`;
    console.log(line('inline 100 chars, idle gateway', idle));
    console.log(line('inline 100 chars, during the long job', busy));
    const [idleP99, busyP99] = [percentile(idle, 99), percentile(busy, 99)];
    goal('inline p99 during a job / idle', busyP99 / idleP99, 1.5, `${busyP99.toFixed(0)} ms / ${idleP99.toFixed(0)} ms`);
    goal(`gateway RSS peak, ${LONG_CHARS}-char job (MB)`, longRss / 1e6, 200, `idle ${mb(idleRss)}`);

    const opens = [];
    for (let i = 0; i < 3; i++) opens.push(await timeToPlayer(gateway, long));
    const open = opens.sort((a, b) => a.totalMs - b.totalMs)[1]!;
    console.log(
      `long job to the player (median of 3): peaks ${open.peaksMs.toFixed(0)} ms (${(open.peaksBytes / 1e6).toFixed(2)} MB), first 5 s of audio ${open.audioMs.toFixed(0)} ms; spread ${opens.map((o) => o.totalMs.toFixed(0)).join(' / ')} ms`,
    );
    goal('long job peaks + first audio to the player (s)', open.totalMs / 1000, 1, `peaks ${(open.peaksBytes / 1e6).toFixed(2)} MB`);
  } finally {
    rss.stop();
    gateway.child.kill('SIGTERM');
    await exited(gateway.child);
    await rm(dataDir, { recursive: true, force: true });
  }

  console.log(`\nEncoding, per format (${values['encode-chars']} characters, sizes scaled to 100,000):`);
  await encodeTable({ chars: Number(values['encode-chars']) });
}

await main();
