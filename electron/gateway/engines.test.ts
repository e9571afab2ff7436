import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/gateway';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.stop());

interface Summary {
  id: string;
  available: boolean;
  reason?: string;
  voiceCount: number;
  languages: string[];
  defaultVoice: string | null;
}

describe('GET /engines', () => {
  it('lists the embedded eSpeak NG with all its voices, available without any system install', async () => {
    const response = await gateway.api('/api/v1/tts/engines');
    expect(response.status).toBe(200);
    const { engines } = (await response.json()) as { engines: Summary[] };
    const espeak = engines.find((e) => e.id === 'espeak-ng')!;
    expect(espeak).toMatchObject({ available: true, defaultVoice: 'espeak-ng:en-us' });
    expect(espeak.voiceCount).toBeGreaterThan(100);
    expect(espeak.languages).toEqual(expect.arrayContaining(['en-US', 'de', 'fr-FR']));
    for (const engine of engines) {
      if (!engine.available) expect(engine.reason).toBeTruthy();
    }
  });
});

describe('GET /engines/{id}', () => {
  it('gives the engine with its full voice list', async () => {
    const response = await gateway.api('/api/v1/tts/engines/espeak-ng');
    expect(response.status).toBe(200);
    const detail = (await response.json()) as Summary & { voices: { id: string; language: string; sampleRate: number; name: string }[] };
    expect(detail.voices).toHaveLength(detail.voiceCount);
    expect(new Set(detail.voices.map((v) => v.id)).size).toBe(detail.voiceCount);
    expect(detail.voices).toContainEqual(expect.objectContaining({ id: 'espeak-ng:en-us', language: 'en-US', sampleRate: 22050 }));
    for (const voice of detail.voices) expect(voice.id.startsWith('espeak-ng:')).toBe(true);
  });

  it('answers 404 engine_not_found for an unknown id', async () => {
    const response = await gateway.api('/api/v1/tts/engines/nope');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'engine_not_found' } });
  });
});

describe('GET /api/v1/openapi.json', () => {
  it('documents every route from the same schemas', async () => {
    const response = await fetch(`${gateway.url}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    const doc = (await response.json()) as { openapi: string; paths: Record<string, Record<string, { requestBody?: unknown }>> };
    expect(doc.openapi).toMatch(/^3\./);
    for (const route of [
      '/api/v1/tts/engines',
      '/api/v1/tts/engines/{id}',
      '/api/v1/tts/synthesize',
      '/api/v1/tts/preview',
      '/api/v1/tts/jobs/{id}',
      '/api/v1/tts/jobs/{id}/audio',
    ]) {
      expect(doc.paths).toHaveProperty([route]);
    }
    expect(JSON.stringify(doc.paths['/api/v1/tts/synthesize']!.post!.requestBody)).toContain('"maximum":2');
  });
});
