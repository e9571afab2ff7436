/**
 * The book's language chooses the voice (issue 34): a project made without a voice takes an
 * installed voice of the language its file names (an EPUB's dc:language, a DOCX's core
 * properties), the import report says which and why, and the embedded eSpeak NG reads it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineDetail, Job, Project, RenderResult, Voice } from '../contract';
import { parseWav } from '../audio/wav';
import { startTestGateway, waitForJob, type TestGateway } from '../testing/gateway';
import { pandoc } from '../testing/book';

const PROJECTS = '/api/v1/tts/projects';
const GERMAN = '# Kapitel Eins\n\nDer Leuchtturm stand am Ende der Welt. Niemand wusste, wer ihn gebaut hatte.\n';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.stop());

async function create(body: Record<string, unknown>): Promise<Project> {
  const response = await gateway.post(PROJECTS, body);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Project;
}

/** A voice as its engine lists it: its language. */
async function voiceNamed(id: string): Promise<Voice> {
  const engine = (await (await gateway.api(`/api/v1/tts/engines/${id.split(':')[0]}`)).json()) as EngineDetail;
  return engine.voices.find((v) => v.id === id)!;
}

const book = (name: string, markdown: string, format: 'docx' | 'epub', lang?: string) => ({
  name,
  data: pandoc(markdown, format, lang === undefined ? [] : [`lang=${lang}`]).toString('base64'),
});

describe("the book's language chooses the voice", () => {
  it('gives a German EPUB a German voice, which reads it', async () => {
    const project = await create({ manuscript: book('leuchtturm.epub', GERMAN, 'epub', 'de-DE') });
    expect(project.language).toBe('de-DE');
    // eSpeak NG's "de", or a de-DE voice of another engine where one is installed (Pico's)
    const voice = await voiceNamed(project.voice);
    expect(voice.language.split('-')[0]).toBe('de');
    const exact = voice.language === 'de-DE' ? '' : ` (this voice speaks ${voice.language})`;
    expect(project.import_report!.voice).toEqual({ id: voice.id, name: voice.name, reason: `the book's language, de-DE${exact}` });
    expect(project.import_report!.notes).toEqual([]);

    const render = (await (await gateway.post(`${PROJECTS}/${project.project_id}/render`, {})).json()) as RenderResult;
    const chapter = project.chapters.findIndex((c) => c.title === 'Kapitel Eins');
    const jobId = render.queued.find((q) => q.index === chapter)!.job_id;
    expect((await waitForJob(gateway, jobId)).status).toBe('done');
    const job = (await (await gateway.api(`/api/v1/tts/jobs/${jobId}`)).json()) as Job;
    expect(job.voice).toBe(voice.id);
    const wav = parseWav(Buffer.from(await (await gateway.api(`/api/v1/tts/jobs/${jobId}/audio`)).arrayBuffer()));
    expect(wav.dataBytes / 2 / wav.sampleRate).toBeGreaterThan(3);
  }, 120_000);

  it('takes a voice of the exact tag when there is one (a British DOCX), and keeps a voice asked for', async () => {
    const british = await create({ manuscript: book('colour.docx', '# Chapter One\n\nThe colour of the sea.\n', 'docx', 'en-GB') });
    expect(british.language).toBe('en-GB');
    expect((await voiceNamed(british.voice)).language).toBe('en-GB');
    expect(british.import_report!.voice!.reason).toBe("the book's language, en-GB");

    const chosen = await create({ voice: 'espeak-ng:en-us', manuscript: book('leuchtturm.docx', GERMAN, 'docx', 'de') });
    expect([chosen.language, chosen.voice, chosen.import_report!.voice]).toEqual(['de', 'espeak-ng:en-us', undefined]);
  });

  it('falls back to the default voice, saying why, when no voice speaks the language or none is named', async () => {
    const klingon = await create({ manuscript: book('unknown.epub', '# Chapter One\n\nText.\n', 'epub', 'qaa') });
    const fallback = (await create({ manuscript: { name: 'plain.txt', text: 'Some words.' } })).voice;
    expect(klingon.voice).toBe(fallback);
    expect(klingon.import_report!.voice!.reason).toBe("the default voice: no installed voice speaks the book's language, qaa");
    expect(klingon.import_report!.notes).toContain(
      `No installed voice speaks qaa, the book's language: ${klingon.import_report!.voice!.name} reads it.`,
    );

    const plain = await create({ manuscript: { name: 'plain.txt', text: 'Some words.' } });
    expect(plain.import_report!.voice!.reason).toBe('the default voice: the book names no language');
  });
});
