import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSpeech } from '../../testing/audio';
import { until } from '../../testing/until';
import { startTestGateway, waitForJob, WORKER_FILE, type TestGateway } from '../../testing/gateway';
import { PIPER_SHAPED, piperShapedLength, writePiperShapedVits } from '../../testing/piper-shaped-vits';
import { TINY_VITS, tinyVitsLength, writeTinyVits } from '../../testing/tiny-vits';
import type { EngineAdapter } from '../engine';
import { PARAGRAPH_PAUSE_MS } from '../../jobs/chunker';
import { sherpaOnnxAdapter } from './adapter';

// Real sherpa-onnx-node in the real model process, on a VITS-shaped model the test writes itself
// (testing/tiny-vits.ts): the neural path from model folder to samples, without downloaded weights.

let modelsDir: string;
let tempDir: string;
let adapter: EngineAdapter;
const VOICE = `sherpa-onnx:${TINY_VITS.folder}`;

beforeAll(async () => {
  modelsDir = await mkdtemp(path.join(os.tmpdir(), 'orator-tiny-vits-'));
  await writeTinyVits(modelsDir);
  tempDir = path.join(modelsDir, 'tmp');
  adapter = sherpaOnnxAdapter([modelsDir], WORKER_FILE, { tempDir });
});
afterAll(() => rm(modelsDir, { recursive: true, force: true }));

const request = (text: string, rate = 1) => ({ text, voice: TINY_VITS.folder, rate, pitch: 1, volume: 1 });

describe('sherpa-onnx on a tiny VITS model', () => {
  it('loads the model when probed and lists its voice with the metadata sample rate and the folder locale', async () => {
    const probe = await adapter.probe();
    expect(probe).toEqual({
      available: true,
      voices: [{ id: VOICE, name: TINY_VITS.folder, language: 'en-US', sampleRate: TINY_VITS.sampleRate, quality: 'high' }],
      defaultVoice: VOICE,
    });
  });

  it('synthesizes audio whose length follows the text', async () => {
    await adapter.probe();
    const short = await adapter.synthesize(request('Hello world.'), { lane: 'interactive' });
    expect(short.sampleRate).toBe(TINY_VITS.sampleRate);
    expect(short.samples.length).toBe(tinyVitsLength('Hello world.'));
    const long = await adapter.synthesize(request('Hello world, and hello again.'), { lane: 'batch' });
    expect(long.samples.length).toBe(tinyVitsLength('Hello world, and hello again.'));
    expect(long.samples.length).toBeGreaterThan(2 * short.samples.length);
    const peak = short.samples.reduce((max, s) => Math.max(max, Math.abs(s)), 0);
    expect(peak).toBeGreaterThan(0.2 * 32767);
  });

  it('hands the samples over in a private file it deletes behind the answer, in a folder that goes with the process', async () => {
    await adapter.probe();
    const pcm = await adapter.synthesize(request('Samples by file.'), { lane: 'batch' });
    expect(pcm.samples.length).toBe(tinyVitsLength('Samples by file.'));
    const [folder, ...others] = await readdir(tempDir);
    expect(others).toEqual([]);
    expect(folder).toMatch(/^orator-/);
    expect((await stat(path.join(tempDir, folder!))).mode & 0o777).toBe(0o700);
    // removed behind the answer (client.ts), not before it
    await until(
      async () => ((await readdir(path.join(tempDir, folder!))).length === 0 ? true : undefined),
      10_000,
      'the samples file gone',
    );
    await adapter.release!();
    await until(async () => ((await readdir(tempDir)).length === 0 ? true : undefined), 10_000, 'the folder gone');
  });

  it('speaks faster at a higher rate (the length scale of the model)', async () => {
    await adapter.probe();
    const text = 'Rate follows the length scale.';
    const normal = await adapter.synthesize(request(text), { lane: 'interactive' });
    const fast = await adapter.synthesize(request(text, 2), { lane: 'interactive' });
    expect(fast.samples.length).toBe(tinyVitsLength(text, 2));
    expect(fast.samples.length).toBe(normal.samples.length / 2);
  });
});

describe('sherpa-onnx on a tiny VITS model, through the gateway', () => {
  let dataDir: string;
  let gateway: TestGateway;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-tiny-vits-gateway-'));
    await writeTinyVits(path.join(dataDir, 'models')); // the data dir's own model folder
    gateway = await startTestGateway({ dataDir });
  });
  afterAll(async () => {
    await gateway.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("answers an inline request with a WAV of the model's audio, at its sample rate and length", async () => {
    const text = 'Hello from a tiny model.';
    const response = await gateway.post('/api/v1/tts/synthesize', { text, voice: VOICE });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    const seconds = expectSpeech(Buffer.from(await response.arrayBuffer()), { sampleRate: TINY_VITS.sampleRate });
    expect(seconds).toBe(tinyVitsLength(text) / TINY_VITS.sampleRate);
  });

  it('runs a job on the model: its chunks joined with their pause', async () => {
    const paragraphs = ['The first paragraph.', 'And the second one.'];
    const accepted = await gateway.post('/api/v1/tts/synthesize', { text: paragraphs.join('\n\n'), voice: VOICE, mode: 'job' });
    expect(accepted.status).toBe(202);
    const { job_id } = (await accepted.json()) as { job_id: string };
    expect(await waitForJob(gateway, job_id)).toMatchObject({ status: 'done', progress: { done: 2, total: 2 } });
    const audio = Buffer.from(await (await gateway.api(`/api/v1/tts/jobs/${job_id}/audio`)).arrayBuffer());
    const samples = tinyVitsLength(paragraphs[0]!) + (PARAGRAPH_PAUSE_MS / 1000) * TINY_VITS.sampleRate + tinyVitsLength(paragraphs[1]!);
    expect(expectSpeech(audio, { sampleRate: TINY_VITS.sampleRate })).toBe(samples / TINY_VITS.sampleRate);
  });
});

describe("the bench's Piper-shaped model (a Piper low voice's decoder with random weights)", () => {
  it('loads and speaks noise as long as the text, at its rate', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'orator-piper-shaped-'));
    try {
      await writePiperShapedVits(dir);
      const shaped = sherpaOnnxAdapter([dir], WORKER_FILE);
      const probe = await shaped.probe();
      expect(probe).toMatchObject({ available: true, defaultVoice: `sherpa-onnx:${PIPER_SHAPED.folder}` });
      const text = 'Shaped.';
      const pcm = await shaped.synthesize({ ...request(text), voice: PIPER_SHAPED.folder }, { lane: 'interactive' });
      expect(pcm.sampleRate).toBe(PIPER_SHAPED.sampleRate);
      expect(pcm.samples.length).toBe(piperShapedLength(text));
      const fast = await shaped.synthesize({ ...request(text, 2.5), voice: PIPER_SHAPED.folder }, { lane: 'interactive' });
      expect(fast.samples.length).toBe(piperShapedLength(text, 2.5));
      expect(fast.samples.length).toBeLessThan(pcm.samples.length / 2);
      expect(pcm.samples.reduce((max, s) => Math.max(max, Math.abs(s)), 0)).toBeGreaterThan(0.1 * 32767);
      await shaped.release!();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
