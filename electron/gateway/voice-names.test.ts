/**
 * One name space for voices and formats: OpenAI's voice names (mapped by the openai_voices
 * setting) and `opus` on Orator's own routes, inline, streamed, as jobs, in SSML and in projects,
 * against a real gateway, the audio decoded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSpeech } from '../testing/audio';
import { decodeIndependently } from '../testing/decoders';
import { startTestGateway, waitForJob, type TestGateway } from '../testing/gateway';
import { prose } from '../testing/prose';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({ inlineThreshold: 1000 });
});
afterAll(() => gateway.stop());

const synthesize = (body: object) => gateway.post('/api/v1/tts/synthesize', body);

async function putVoiceMap(map: Record<string, string>): Promise<() => Promise<void>> {
  const view = (await (await gateway.api('/api/v1/tts/settings')).json()) as { settings: Record<string, unknown> };
  const { host: _host, ...settings } = view.settings;
  const put = (body: object) =>
    gateway.api('/api/v1/tts/settings', {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${gateway.adminToken}` },
      body: JSON.stringify(body),
    });
  expect((await put({ ...settings, openai_voices: map })).status).toBe(200);
  return async () => void (await put(settings));
}

describe('OpenAI voice names on Orator’s routes', () => {
  it('speaks "alloy" inline with the voice it maps to, and "nova" within an engine as that engine’s voice', async () => {
    const alloy = await synthesize({ text: 'Hello there.', voice: 'alloy' });
    expect(alloy.status).toBe(200);
    expect(alloy.headers.get('x-orator-voice')).toBe('espeak-ng:en-us');
    expectSpeech(Buffer.from(await alloy.arrayBuffer()), { minSeconds: 0.5 });
    // nova is flite:slt; asked of eSpeak NG it falls back to that engine's default voice, as on /v1
    const novaOnEspeak = await synthesize({ text: 'Hello there.', voice: 'nova', engine: 'espeak-ng' });
    expect(novaOnEspeak.headers.get('x-orator-voice')).toBe('espeak-ng:en-us');
    const preview = await gateway.post('/api/v1/tts/preview', { voice: 'fable' });
    expect(preview.headers.get('x-orator-voice')).toBe('espeak-ng:en-gb');
  });

  it('follows the openai_voices setting at once, its own names included', async () => {
    const restore = await putVoiceMap({ alloy: 'espeak-ng:de', narrator: 'flite:rms' });
    try {
      expect((await synthesize({ text: 'Guten Tag.', voice: 'alloy' })).headers.get('x-orator-voice')).toBe('espeak-ng:de');
      expect((await synthesize({ text: 'Hello.', voice: 'narrator' })).headers.get('x-orator-voice')).toBe('flite:rms');
    } finally {
      await restore();
    }
    expect((await synthesize({ text: 'Hello.', voice: 'alloy' })).headers.get('x-orator-voice')).toBe('espeak-ng:en-us');
  });

  it('switches voices by OpenAI name inside SSML', async () => {
    const ssml = '<speak>First voice. <voice name="nova">Second voice, a longer sentence to hear.</voice></speak>';
    const both = await synthesize({ text: ssml, text_type: 'ssml', voice: 'alloy', format: 'wav' });
    expect(both.status).toBe(200);
    expectSpeech(Buffer.from(await both.arrayBuffer()), { minSeconds: 2 });
    const unknown = await synthesize({ text: ssml.replace('nova', 'nobody'), text_type: 'ssml' });
    expect(unknown.status).toBe(422);
  });

  it('still refuses a name that is neither a voice nor in the map', async () => {
    const response = await synthesize({ text: 'Hello.', voice: 'nobody' });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unknown_voice');
  });
});

describe('opus as a name of ogg on Orator’s routes', () => {
  it('answers format "opus" inline and streamed as Opus in Ogg', async () => {
    for (const stream of [false, true]) {
      const response = await synthesize({ text: prose(300), voice: 'alloy', format: 'opus', stream });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('audio/ogg');
      expect(response.headers.get('content-disposition')).toBe('inline; filename="orator-speech.ogg"');
      const decoded = await decodeIndependently('ogg', new Uint8Array(await response.arrayBuffer()));
      expect(decoded.seconds).toBeGreaterThan(10);
    }
  });

  it('queues a job in "opus" as an ogg job with the mapped voice, and serves ?format=opus', async () => {
    const accepted = await synthesize({ text: prose(1500), voice: 'alloy', format: 'opus', keep_wav: true });
    expect(accepted.status).toBe(202);
    const { job_id } = (await accepted.json()) as { job_id: string };
    expect(await waitForJob(gateway, job_id)).toMatchObject({ status: 'done' });
    const job = (await (await gateway.api(`/api/v1/tts/jobs/${job_id}`)).json()) as { format: string; voice: string };
    expect(job).toMatchObject({ format: 'ogg', voice: 'espeak-ng:en-us' });
    const audio = await gateway.api(`/api/v1/tts/jobs/${job_id}/audio?format=opus`);
    expect([audio.status, audio.headers.get('content-type')]).toEqual([200, 'audio/ogg']);
    expect((await decodeIndependently('ogg', new Uint8Array(await audio.arrayBuffer()))).seconds).toBeGreaterThan(60);
  });

  it('keeps a project’s voice and format as resolved: "alloy" and "opus" become their ids', async () => {
    const created = await gateway.post('/api/v1/tts/projects', {
      manuscript: { name: 'book.md', text: '# One\n\nHello.' },
      voice: 'alloy',
      format: 'opus',
    });
    expect(created.status).toBe(201);
    const project = (await created.json()) as { project_id: string; voice: string; format: string };
    expect(project).toMatchObject({ voice: 'espeak-ng:en-us', format: 'ogg' });
    const changed = await gateway.api(`/api/v1/tts/projects/${project.project_id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ voice: 'nova' }),
    });
    expect(((await changed.json()) as { voice: string }).voice).toBe('flite:slt');
  });
});
