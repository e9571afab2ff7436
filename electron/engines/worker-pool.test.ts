/** The real worker-thread pool with the real embedded engines (dist/synth-worker.mjs). */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '../contract';
import { WORKER_FILE } from '../testing/gateway';
import { espeakWasmAdapter } from './espeak-ng/adapter';
import { gnuspeechAdapter } from './gnuspeech/adapter';
import { EmbeddedPool } from './worker-pool';

const pool = new EmbeddedPool({ workerFile: WORKER_FILE, threads: 1 });
afterAll(() => pool.close());

const SENTENCE = 'The river wound slowly through the valley, carrying leaves from the autumn trees. ';
const request = (text: string) => ({ text, voice: 'en-us', rate: 1, pitch: 1, volume: 1 });

describe('embedded engines on the worker pool', () => {
  it('stops a synthesis that overruns its time limit with engine_timeout, and the pool goes on', async () => {
    // GnuSpeech needs seconds for this text (≈1 ms per character); the limit is 300 ms.
    const impatient = gnuspeechAdapter(pool, { timeoutMs: 300 });
    // Loaded and warm first, so that the limit stops synthesis, not loading.
    await gnuspeechAdapter(pool).synthesize({ ...request('Warm up.'), voice: 'male' }, { lane: 'interactive' });
    const long = { ...request(SENTENCE.repeat(40)), voice: 'male' };
    const started = Date.now();
    const error = await impatient.synthesize(long, { lane: 'interactive' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('engine_timeout');
    expect((error as ApiError).message).toBe('GnuSpeech (embedded) did not finish within 0.3 s and was stopped.');
    expect(Date.now() - started).toBeLessThan(3000);
    // The stopped thread is replaced: the next request is served.
    const pcm = await espeakWasmAdapter(pool).synthesize(request('Still here.'), { lane: 'interactive' });
    expect(pcm.samples.length).toBeGreaterThan(1000);
  });

  it('keeps an abort by the caller an abort, not a timeout', async () => {
    const adapter = gnuspeechAdapter(pool, { timeoutMs: 60_000 });
    const abort = new AbortController();
    setTimeout(() => abort.abort(new Error('cancelled by the job')), 200);
    const started = Date.now();
    await expect(
      adapter.synthesize({ ...request(SENTENCE.repeat(40)), voice: 'male' }, { lane: 'batch', signal: abort.signal }),
    ).rejects.toThrow('cancelled by the job');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('runs an interactive request on its own thread while batch work holds every batch thread', async () => {
    const espeak = espeakWasmAdapter(pool);
    const gnuspeech = gnuspeechAdapter(pool);
    const order: string[] = [];
    const signal = new AbortController().signal; // every task carries one
    await Promise.all([
      // seconds of GnuSpeech on the one batch thread; the second chunk waits for it, though a thread is free
      gnuspeech.synthesize({ ...request(SENTENCE.repeat(15)), voice: 'male' }, { lane: 'batch', signal }).then(() => order.push('b1')),
      espeak.synthesize(request('Next chunk.'), { lane: 'batch', signal }).then(() => order.push('b2')),
      espeak.synthesize(request('Preview.'), { lane: 'interactive', signal }).then(() => order.push('i1')),
    ]);
    expect(order).toEqual(['i1', 'b1', 'b2']);
  });

  it('synthesizes a batch in one task, each request its own call: the audio of each as it alone would be', async () => {
    // eSpeak NG's audio of a text varies by a few samples from call to call: lengths are compared
    const espeak = espeakWasmAdapter(pool);
    const texts = ['Mr. Smith went home.', 'It rained.', 'The river wound slowly through the valley.'];
    const signal = new AbortController().signal;
    const batch = await espeak.synthesizeBatch!(texts.map(request), { lane: 'batch', signal });
    expect(batch).toHaveLength(texts.length);
    for (const [i, text] of texts.entries()) {
      const alone = await espeak.synthesize(request(text), { lane: 'batch', signal });
      expect(batch[i]!.sampleRate).toBe(alone.sampleRate);
      expect(batch[i]!.samples.length).toBeGreaterThan(1000);
      expect(Math.abs(batch[i]!.samples.length / alone.samples.length - 1)).toBeLessThan(0.02);
    }
  });

  it('runs batch work on threads that lowered their own priority, and no other thread of the process', async () => {
    const niceness = () =>
      readdirSync('/proc/self/task').map((tid) =>
        Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]),
      );
    await espeakWasmAdapter(pool).synthesize(request('A chunk of a job.'), { lane: 'batch' });
    // relative to this process's own priority: the tests may run under `nice`
    const own = os.getPriority();
    const batch = Math.min(19, own + 10);
    expect(niceness().filter((nice) => nice === batch)).toEqual([batch]); // the pool's one batch thread
    expect(niceness().filter((nice) => nice === own).length).toBeGreaterThan(4); // this one, the interactive one, libuv's, V8's
  });

  it('lists voices on a thread of its own that exits when idle, so synthesis threads load only the engines they use', async () => {
    const before = pool.liveThreads;
    const voices = await pool.voices('flite', 30_000);
    expect(voices.map((v) => v.id)).toContain('flite:slt');
    expect(pool.liveThreads).toBe(before + 1);
    await expect.poll(() => pool.liveThreads, { timeout: 15_000, interval: 200 }).toBe(before);
  });

  it('gets the audio back without detaching a buffer in the engine thread, which would slow its typed arrays for good', async () => {
    // V8 names each protector it gives up with this flag, which only a starting process takes: so a
    // child process runs the worker bundle on Piscina, as the pool does (in plain JavaScript: a
    // TypeScript loader's own thread detaches buffers)
    const dir = mkdtempSync(path.join(os.tmpdir(), 'orator-protector-'));
    const script = path.join(dir, 'pool.mjs');
    writeFileSync(
      script,
      `import { Piscina } from ${JSON.stringify(import.meta.resolve('piscina'))};
      const threads = new Piscina({ filename: ${JSON.stringify(WORKER_FILE)}, maxThreads: 1 });
      const task = { kind: 'synthesize', engine: 'espeak-ng', request: ${JSON.stringify(request(SENTENCE))} };
      for (let i = 0; i < 2; i++) console.log('samples', (await threads.run(task)).samples.length);
      await threads.close();`,
    );
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, ['--trace-protector-invalidation', script]).finally(() =>
      rmSync(dir, { recursive: true }),
    );
    expect(stdout.match(/samples [1-9]\d{4,}/g)).toHaveLength(2); // seconds of audio at 22,050 Hz
    expect(stdout).not.toContain('ArrayBufferDetaching');
  });
});
