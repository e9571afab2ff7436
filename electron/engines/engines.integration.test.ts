/** Every engine available on this machine, through the real gateway over HTTP, with its audio checked. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineDetail, EngineSummary } from '../contract';
import { decodeWav } from '../audio/wav';
import { expectSpeech } from '../testing/audio';
import { startTestGateway, waitForJob, type TestGateway } from '../testing/gateway';

const TEXT = 'The river wound slowly through the valley, carrying leaves from the autumn trees.';
let gateway: TestGateway;
let modelsDir: string;
let engines: EngineSummary[];
const previousModelsDir = process.env.ORATOR_MODELS_DIR;

beforeAll(async () => {
  // A models folder holding one malformed neural model: it must be reported, not fatal.
  modelsDir = await mkdtemp(path.join(os.tmpdir(), 'orator-models-'));
  await mkdir(path.join(modelsDir, 'vits-broken'));
  await writeFile(path.join(modelsDir, 'vits-broken', 'model.onnx'), 'not ONNX');
  await writeFile(path.join(modelsDir, 'vits-broken', 'tokens.txt'), 'a 1\n');
  process.env.ORATOR_MODELS_DIR = modelsDir;
  gateway = await startTestGateway();
  engines = ((await (await gateway.api('/api/v1/tts/engines')).json()) as { engines: EngineSummary[] }).engines;
});

afterAll(async () => {
  await gateway.stop();
  if (previousModelsDir === undefined) delete process.env.ORATOR_MODELS_DIR;
  else process.env.ORATOR_MODELS_DIR = previousModelsDir;
  await rm(modelsDir, { recursive: true, force: true });
});

async function detail(id: string): Promise<EngineDetail> {
  return (await (await gateway.api(`/api/v1/tts/engines/${id}`)).json()) as EngineDetail;
}

async function synthesize(body: Record<string, unknown>): Promise<Buffer> {
  const response = await gateway.post('/api/v1/tts/synthesize', body);
  const audio = Buffer.from(await response.arrayBuffer());
  expect(response.status, audio.toString('utf8', 0, 300)).toBe(200);
  return audio;
}

describe('the engine list', () => {
  it('shows at least five engines available, every other one with its reason', () => {
    const available = engines.filter((e) => e.available).map((e) => e.id);
    expect(available.length, `available: ${available.join(', ')}`).toBeGreaterThanOrEqual(5);
    // The embedded engines need no system install.
    expect(available).toEqual(expect.arrayContaining(['espeak-ng', 'flite', 'gnuspeech']));
    for (const engine of engines) {
      expect(engine.kind).toMatch(/^(embedded|system|neural)$/);
      if (!engine.available) expect(engine.reason?.length, engine.id).toBeGreaterThan(20);
    }
  });

  it('reports a malformed model folder with the folder and what went wrong', () => {
    const neural = engines.find((e) => e.id === 'sherpa-onnx')!;
    expect(neural.available).toBe(false);
    expect(neural.reason).toContain(path.join(modelsDir, 'vits-broken'));
    expect(neural.reason).toMatch(/model process stopped \(SIGABRT\)/);
  });

  it('gives each voice its quality tier and how rate, pitch and volume reach the audio', async () => {
    const flite = await detail('flite');
    expect(flite.options).toEqual({ rate: 'engine', pitch: 'engine', volume: 'after_synthesis' });
    expect(flite.voices.find((v) => v.id === 'flite:slt')).toMatchObject({
      language: 'en-US',
      gender: 'female',
      sampleRate: 16000,
      quality: 'medium',
      options: { rate: 'engine', pitch: 'engine', volume: 'after_synthesis' },
    });
    const gnuspeech = await detail('gnuspeech');
    expect(gnuspeech.options?.pitch).toBe('ignored');
  });
});

describe('synthesis with every available engine', () => {
  it('gives speech at the voice’s rate, as long as the text needs, shorter when faster, other when higher', async () => {
    for (const engine of engines.filter((e) => e.available)) {
      const voice = (await detail(engine.id)).voices.find((v) => v.id === engine.defaultVoice)!;
      const wav = await synthesize({ engine: engine.id, text: TEXT });
      // Speech runs at roughly 10 to 20 characters a second.
      const seconds = expectSpeech(wav, { sampleRate: voice.sampleRate, minSeconds: TEXT.length / 30, maxSeconds: TEXT.length / 5 });
      if (engine.capabilities.rate) {
        const faster = expectSpeech(await synthesize({ engine: engine.id, text: TEXT, rate: 2 }));
        expect(faster, `${engine.id} at rate 2`).toBeLessThan(seconds * 0.85);
      }
      if (engine.capabilities.pitch) {
        const higher = await synthesize({ engine: engine.id, text: TEXT, pitch: 1.5 });
        expect(higher.equals(wav), `${engine.id} at pitch 1.5`).toBe(false);
      }
    }
  });

  it('applies volume after synthesis for engines that cannot', async () => {
    const peak = (wav: Buffer) => decodeWav(wav).samples.reduce((max, s) => Math.max(max, Math.abs(s)), 0);
    const full = peak(await synthesize({ voice: 'flite:kal16', text: TEXT }));
    const half = peak(await synthesize({ voice: 'flite:kal16', text: TEXT, volume: 0.5 }));
    expect(half / full).toBeCloseTo(0.5, 1);
  });

  it('runs a job through a system engine end to end', async () => {
    const engine = engines.find((e) => e.available && e.kind === 'system')!;
    const response = await gateway.post('/api/v1/tts/synthesize', { engine: engine.id, text: `${TEXT} ${TEXT}`, mode: 'job' });
    expect(response.status).toBe(202);
    const { job_id } = (await response.json()) as { job_id: string };
    expect((await waitForJob(gateway, job_id)).status).toBe('done');
    expectSpeech(Buffer.from(await (await gateway.api(`/api/v1/tts/jobs/${job_id}/audio`)).arrayBuffer()), { minSeconds: 4 });
  });
});

describe('refreshing engines', () => {
  it('detects one engine again', async () => {
    const response = await gateway.api('/api/v1/tts/engines/flite/refresh', { method: 'POST' });
    expect(response.status).toBe(200);
    expect(((await response.json()) as EngineDetail).voices.length).toBe(5);
    const unknown = await gateway.api('/api/v1/tts/engines/nope/refresh', { method: 'POST' });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('engine_not_found');
  });

  it('rescans all engines, picking up a model folder fixed meanwhile as a changed reason', async () => {
    await rm(path.join(modelsDir, 'vits-broken', 'tokens.txt'));
    const response = await gateway.api('/api/v1/tts/engines/refresh', { method: 'POST' });
    expect(response.status).toBe(200);
    const { engines: rescanned } = (await response.json()) as { engines: EngineSummary[] };
    expect(rescanned.map((e) => e.id)).toEqual(engines.map((e) => e.id));
    expect(rescanned.find((e) => e.id === 'sherpa-onnx')?.reason).toMatch(/no tokens\.txt/);
  });
});
