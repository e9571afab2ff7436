import { getEventListeners } from 'node:events';
import { existsSync } from 'node:fs';
import { readdir, readFile, rename, truncate } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseWav, WAV_HEADER_BYTES } from '../audio/wav';
import { normalisedPeak } from '../audio/peak-levels';
import { decodeIndependently } from '../testing/decoders';
import { PROSODY, startJobHarness, type JobHarness } from '../testing/job-harness';
import type { JobOutput } from './admission';
import { JobAssembler, MAX_OPEN_WRITERS } from './assembler';
import { HELD_AHEAD_BYTES, HELD_AHEAD_CHUNKS } from './held-chunks';
import { PARTIAL } from './files';
import type { WrittenAudio } from './audio-writer';
import { readPeaks } from './peaks-file';

// JobAssembler on its own: the test saves chunk files (out of order) and tells it, as the runner does; no engine.

let h: JobHarness;
let assembler: JobAssembler;
let done: Map<string, WrittenAudio>;
let failed: Map<string, unknown>;
let settled: () => void;
let anyEnd: Promise<void>;

function expectEnd() {
  anyEnd = new Promise((resolve) => (settled = resolve));
}

beforeEach(async () => {
  h = await startJobHarness();
  h.runner.pause(); // the test plays the chunk worker
  done = new Map();
  failed = new Map();
  expectEnd();
  assembler = new JobAssembler(
    { store: h.store, files: h.runner.files, disk: h.disk },
    {
      done: async (id, audio) => {
        done.set(id, audio);
        settled();
      },
      failed: (id, error) => {
        failed.set(id, error);
        settled();
      },
    },
  );
});
afterEach(async () => {
  await assembler.stopAll();
  await h.close();
});

const RATE = 8000;
const PAUSE = (0.7 * RATE) | 0; // between paragraphs: 700 ms

async function job(paragraphs: number, output?: JobOutput): Promise<string> {
  const text = Array.from({ length: paragraphs }, (_, i) => `Paragraph ${i}.`).join('\n\n');
  const { id } = await h.enqueue(text, PROSODY, output);
  h.store.transition(id, 'running');
  return id;
}

/** Saves chunk idx as the runner does (its file, its row), at level 100 * (idx + 1), and tells the assembler. */
async function save(id: string, idx: number, length: number, tell = true): Promise<void> {
  const samples = new Int16Array(length).fill(100 * (idx + 1));
  await h.runner.files.writeChunk(id, idx, samples);
  h.store.chunkDone(id, idx, { samples: samples.length, sampleRate: RATE, sentences: null });
  if (tell) assembler.chunkSaved(id);
}

/** Offers chunk idx as the runner does when it is synthesized (the job has its rate); resolves whether it was joined (and recorded). */
function offer(id: string, idx: number, length: number, wait: AbortSignal | null = new AbortController().signal): Promise<boolean> {
  h.store.claimSampleRate(id, RATE);
  const samples = new Int16Array(length).fill(100 * (idx + 1));
  const record = () => h.store.chunkDone(id, idx, { samples: length, sampleRate: RATE, sentences: null }, true);
  return assembler.offer(id, idx, samples, record, wait ?? undefined);
}

/** Whether an offer has settled yet, and how: after the turns of the event loop that settle one at once. */
async function state(offered: Promise<boolean>): Promise<boolean | 'waiting'> {
  return Promise.race([offered, new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), 20))]);
}

const wavSamples = async (file: string) => {
  const wav = await readFile(file);
  return [...new Int16Array(wav.buffer, wav.byteOffset + WAV_HEADER_BYTES, parseWav(wav).dataBytes / 2)];
};

const audioFiles = async (id: string) =>
  (await readdir(h.runner.files.audioDir()))
    .filter((f) => f.startsWith(id))
    .map((f) => f.slice(id.length))
    .sort();

describe('JobAssembler', () => {
  it('joins chunks saved out of order in index order, pauses between them, and writes nothing before the first', async () => {
    const id = await job(3);
    await save(id, 2, 4);
    await save(id, 1, 2);
    expect(await audioFiles(id)).toEqual([]); // chunk 0 is not in: nothing to write yet
    await save(id, 0, 3);
    await anyEnd;
    const wav = await readFile(h.runner.files.audioFile(id, 'wav'));
    const info = parseWav(wav);
    expect(info.sampleRate).toBe(RATE);
    const samples = [...new Int16Array(wav.buffer, wav.byteOffset + WAV_HEADER_BYTES, info.dataBytes / 2)];
    const pause = new Array<number>(PAUSE).fill(0);
    expect(samples).toEqual([...[100, 100, 100], ...pause, ...[200, 200], ...pause, ...[300, 300, 300, 300]]);
    expect(done.get(id)).toEqual({ bytes: wav.length, dataBytes: 2 * samples.length });
    const peaks = await readPeaks(h.runner.files.peaksFile(id));
    expect(peaks).toMatchObject({ duration_s: samples.length / RATE, sample_rate: RATE });
    expect(Math.max(...peaks.peaks)).toBe(normalisedPeak(300));
    expect((await audioFiles(id)).sort()).toEqual(['.peaks.v3.bin', '.wav']);
  });

  it('writes a compressed job and its kept WAV in the same pass, published only when whole', async () => {
    const id = await job(2, { format: 'mp3', bitrateKbps: 32, keepWav: true });
    await save(id, 0, RATE);
    await expect.poll(() => audioFiles(id)).toEqual(expect.arrayContaining(['.mp3.partial', '.wav.partial']));
    expect(done.size).toBe(0);
    await save(id, 1, RATE);
    await anyEnd;
    expect((await audioFiles(id)).sort()).toEqual(['.mp3', '.peaks.v3.bin', '.wav']);
    const mp3 = await readFile(h.runner.files.audioFile(id, 'mp3'));
    expect(done.get(id)).toEqual({ bytes: mp3.length, dataBytes: 2 * (2 * RATE + PAUSE) });
    const decoded = await decodeIndependently('mp3', mp3);
    // two seconds and a pause, plus LAME's delay and padding
    expect(decoded.seconds).toBeGreaterThanOrEqual(2.7);
    expect(decoded.seconds).toBeLessThan(2.85);
  });

  it('takes up a job from its saved chunks alone (a restart): told with no samples, it reads them back', async () => {
    const id = await job(2, { format: 'flac', bitrateKbps: undefined, keepWav: false });
    await save(id, 0, 500, false);
    await save(id, 1, 700, false);
    assembler.chunkSaved(id);
    await anyEnd;
    expect(done.get(id)?.dataBytes).toBe(2 * (500 + PAUSE + 700));
    expect((await decodeIndependently('flac', await readFile(h.runner.files.audioFile(id, 'flac')))).seconds).toBeCloseTo(0.85, 3);
  });

  it('fails the job, publishing nothing, when a chunk file it must read back is missing', async () => {
    const id = await job(2);
    await save(id, 0, 10, false);
    await save(id, 1, 10, false);
    await h.runner.files.removeChunks(id);
    assembler.chunkSaved(id);
    await anyEnd;
    expect((failed.get(id) as NodeJS.ErrnoException).code).toBe('ENOENT');
    expect(done.size).toBe(0);
    expect(existsSync(h.runner.files.audioFile(id, 'wav'))).toBe(false);
  });

  it("joins a WAV job's chunks that arrive in turn or a little ahead without chunk files, and removes those that waited in one", async () => {
    const id = await job(5);
    expect(await offer(id, 0, 3)).toBe(true); // its writer opens
    const ahead = offer(id, 2, 2); // ahead of its turn: held, not recorded until joined
    expect(await state(ahead)).toBe('waiting');
    expect(h.store.get(id)).toMatchObject({ joined_chunks: 1, chunks_done: 1 });
    expect(await offer(id, 1, 4)).toBe(true);
    expect(await ahead).toBe(true);
    expect(h.store.get(id)).toMatchObject({ joined_chunks: 3, chunks_done: 3 });
    await save(id, 3, 1); // one that went to its file: read back in its turn, then removed
    await expect.poll(() => h.store.get(id)!.joined_chunks).toBe(4);
    expect(existsSync(h.runner.files.chunkFile(id, 3))).toBe(false);
    expect(await offer(id, 4, 2)).toBe(true);
    await anyEnd;
    expect(existsSync(h.runner.files.chunkDir(id)) && (await readdir(h.runner.files.chunkDir(id))).length).toBeFalsy();
    const pause = new Array<number>(PAUSE).fill(0);
    expect(await wavSamples(h.runner.files.audioFile(id, 'wav'))).toEqual([
      ...[100, 100, 100, ...pause, 200, 200, 200, 200, ...pause, 300, 300, ...pause, 400, ...pause, 500, 500],
    ]);
  });

  it('holds chunks ahead of their turn only with its writer open and within its bounds, and gives them back when aborted or dropped', async () => {
    const waiting = await job(3);
    expect(await offer(waiting, 1, 2)).toBe(false); // no writer yet: to its file (one may come only once all are saved)

    const id = await job(HELD_AHEAD_CHUNKS + 3);
    expect(await offer(id, 0, 2)).toBe(true);
    const unit = new AbortController();
    expect(await offer(id, 2, 2, null)).toBe(false); // from a caller that cannot wait (a worker host awaits its answer): to its file
    const held = Array.from({ length: HELD_AHEAD_CHUNKS }, (_, i) => offer(id, i + 2, 2, i === 0 ? unit.signal : undefined));
    expect(await offer(id, HELD_AHEAD_CHUNKS + 2, 2)).toBe(false); // past the count: to its file
    unit.abort(); // its unit's job was removed from the queue
    expect(await held[0]).toBe(false);
    expect(await Promise.all(held.slice(1).map(state))).toEqual(new Array(HELD_AHEAD_CHUNKS - 1).fill('waiting'));
    await assembler.drop(id);
    expect(await Promise.all(held)).toEqual(new Array(HELD_AHEAD_CHUNKS).fill(false));
    expect(h.store.get(id)!.chunks_done).toBe(1);

    const other = await job(4);
    expect(await offer(other, 0, 1)).toBe(true);
    const big = offer(other, 2, HELD_AHEAD_BYTES / 2); // its bytes: as many as may be held
    expect(await offer(other, 3, 1)).toBe(false); // past the bytes: to its file
    expect(await offer(other, 1, 1)).toBe(true);
    expect(await big).toBe(true);
  });

  it("leaves nothing on the job's signal once its chunks are joined (it would keep their samples)", async () => {
    const id = await job(3);
    const jobSignal = new AbortController().signal;
    expect(await offer(id, 0, 2, jobSignal)).toBe(true);
    const joined = [offer(id, 2, 2, jobSignal), offer(id, 1, 2, jobSignal)];
    expect(await Promise.all(joined)).toEqual([true, true]);
    expect(getEventListeners(jobSignal, 'abort')).toHaveLength(0);
  });

  it('resumes a WAV job after the chunks its partial WAV holds, and its peaks with them', async () => {
    const id = await job(3);
    expect(await offer(id, 0, RATE)).toBe(true);
    expect(await offer(id, 1, RATE)).toBe(true);
    await assembler.stopAll(); // a stop: the partial WAV stays
    const restarted = new JobAssembler(
      { store: h.store, files: h.runner.files, disk: h.disk },
      { done: async () => settled(), failed: () => settled() },
    );
    await restarted.takeUp(id);
    expect(h.store.get(id)).toMatchObject({ joined_chunks: 2, chunks_done: 2 });
    await save(id, 2, RATE / 2, false);
    restarted.chunkSaved(id);
    await anyEnd;
    const samples = await wavSamples(h.runner.files.audioFile(id, 'wav'));
    const pause = new Array<number>(PAUSE).fill(0);
    expect(samples).toEqual([
      ...new Array<number>(RATE).fill(100),
      ...pause,
      ...new Array<number>(RATE).fill(200),
      ...pause,
      ...new Array<number>(RATE / 2).fill(300),
    ]);
    const peaks = await readPeaks(h.runner.files.peaksFile(id));
    expect(peaks.duration_s).toBe(samples.length / RATE);
    expect(peaks.peaks.slice(0, 2)).toEqual([normalisedPeak(100), normalisedPeak(100)]);
    expect(Math.max(...peaks.peaks)).toBe(normalisedPeak(300));
  });

  it('takes up a WAV cut short (a power loss) as far as it holds whole chunks: the rest is synthesized again', async () => {
    const id = await job(3);
    for (const idx of [0, 1, 2]) expect(await offer(id, idx, 100)).toBe(true);
    await anyEnd;
    // as if it had been a partial WAV whose last writes were lost: into the second chunk
    const wav = h.runner.files.audioFile(id, 'wav');
    await truncate(wav, WAV_HEADER_BYTES + 2 * (100 + PAUSE + 50));
    await rename(wav, wav + PARTIAL);
    h.store.transition(id, 'queued');
    await assembler.takeUp(id);
    expect(h.store.get(id)).toMatchObject({ joined_chunks: 1, chunks_done: 1 });
    expect(h.store.chunks(id).map((c) => c.done)).toEqual([1, 0, 0]);
  });

  it('finishes a job whose every chunk is saved while every streaming writer waits on synthesis', async () => {
    const streaming: string[] = [];
    for (let i = 0; i < MAX_OPEN_WRITERS; i++) {
      const id = await job(2);
      await save(id, 0, 100);
      streaming.push(id);
    }
    await expect.poll(() => audioFiles(streaming.at(-1)!)).toEqual(['.peaks.v3.bin.partial', '.wav.partial']);
    const waiting = await job(2);
    await save(waiting, 0, 100); // not all saved: it waits for a writer
    const whole = await job(2);
    await save(whole, 0, 100, false);
    await save(whole, 1, 100);
    await anyEnd;
    expect([...done.keys()]).toEqual([whole]);
    expect(await audioFiles(waiting)).toEqual([]);
    expectEnd();
    await save(waiting, 1, 100); // now it is whole too
    await anyEnd;
    expect([...done.keys()]).toEqual([whole, waiting]);
  });

  it('stops a dropped job without finishing it', async () => {
    const id = await job(2, { format: 'ogg', bitrateKbps: 24, keepWav: false });
    await save(id, 0, RATE);
    await expect.poll(() => audioFiles(id)).toEqual(['.ogg.partial', '.peaks.v3.bin.partial']);
    await assembler.drop(id);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(done.size + failed.size).toBe(0);
    expect(await audioFiles(id)).toEqual(['.ogg.partial', '.peaks.v3.bin.partial']); // for the runner's clean-up to remove
  });
});
