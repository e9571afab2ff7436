/**
 * Sentence edits belong to the project (docs/projects.md#sentence-edits), over HTTP on a real
 * gateway with the embedded eSpeak NG: an edit made on a chapter's job is kept with the chapter,
 * the chapter stays up to date, a later render (after a lexicon change) says the edit, the export
 * has it, and a manuscript change under it flags it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Export, JobTimings, Project, RenderResult } from '../contract';
import { expectSpeech } from '../testing/audio';
import { recordSpoken, type SpokenTexts } from '../testing/engine-calls';
import { startTestGateway, waitForJob, type TestGateway } from '../testing/gateway';
import { until } from '../testing/until';

const PROJECTS = '/api/v1/tts/projects';
const VOICE = 'espeak-ng:en-us';
const manuscript = (stalls = 'The stalls were full.') => `## The Hills
The sun rose over the hills.

## The Market
Zorblat walked to the market. ${stalls} He bought a pear.
`;

let gateway: TestGateway;
let spoken: SpokenTexts;
beforeAll(async () => {
  gateway = await startTestGateway();
  spoken = recordSpoken(gateway, VOICE);
});
afterAll(() => gateway.stop());
beforeEach(() => spoken.clear());

const send = async (method: string, route: string, body?: unknown) =>
  gateway.api(route, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
async function ok<T>(response: Response): Promise<T> {
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return (await response.json()) as T;
}
const getProject = async (id: string) => ok<Project>(await gateway.api(`${PROJECTS}/${id}`));
const timings = async (jobId: string) => ok<JobTimings>(await gateway.api(`/api/v1/tts/jobs/${jobId}/timings`));

async function render(id: string): Promise<RenderResult> {
  const result = await ok<RenderResult>(await send('POST', `${PROJECTS}/${id}/render`));
  for (const { job_id } of result.queued) expect((await waitForJob(gateway, job_id)).status).toBe('done');
  return result;
}

/** Edits sentence `sentence` of the chapter's job to `text`, by its place in the job's timings. */
async function editSentence(jobId: string, sentence: string, text: string) {
  const n = (await timings(jobId)).sentences.findIndex((s) => s.text === sentence);
  expect(n).toBeGreaterThanOrEqual(0);
  return send('PUT', `/api/v1/tts/jobs/${jobId}/sentences/${n}`, { text });
}

async function exportSubtitles(id: string): Promise<string> {
  const accepted = await ok<{ poll: string }>(await send('POST', `${PROJECTS}/${id}/export`, { format: 'mp3' }));
  const made = await until(async () => {
    const now = await ok<Export>(await gateway.api(accepted.poll));
    return now.status === 'running' ? undefined : now;
  });
  expect(made.status).toBe('done');
  return (await gateway.api(`/api/v1/tts/exports/${made.export_id}/subtitles?format=vtt`)).text();
}

describe('sentence edits of a project', () => {
  it('keeps an edit with its chapter, up to date, said by every later render and in the export', { timeout: 180_000 }, async () => {
    const project = await ok<Project>(await send('POST', PROJECTS, { voice: VOICE, manuscript: { name: 'book.md', text: manuscript() } }));
    const id = project.project_id;
    await render(id);
    const market = (await getProject(id)).chapters[1]!;
    expect((await editSentence(market.job_id!, 'The stalls were full.', 'The stalls were empty.')).status).toBe(200);

    const edited = await getProject(id);
    const chapter = edited.chapters[1]!;
    expect(chapter.text).toContain('The stalls were full.'); // the manuscript is the author's
    const start = chapter.text.indexOf('The stalls');
    expect(chapter.edits).toEqual([
      { original: 'The stalls were full.', text: 'The stalls were empty.', stale: false, text_start: start, text_end: start + 22 },
    ]);
    expect([chapter.job_id, chapter.needs_render, edited.render.state]).toEqual([market.job_id, false, 'up_to_date']);

    // a lexicon change renders the chapter again: with the edit
    await ok(await send('PATCH', '/api/v1/tts/lexicon', { entries: [{ grapheme: 'Zorblat', alias: 'Zed', language: 'en' }] }));
    try {
      expect((await getProject(id)).chapters.map((c) => c.needs_render)).toEqual([false, true]);
      spoken.clear();
      const again = await render(id);
      expect(again.queued.map((q) => q.index)).toEqual([1]);
      // only the sentence the entry changed is synthesized: the edit's audio is the chapter's last render's
      expect(spoken.texts).toEqual(['Zed walked to the market.']);
      const rerendered = (await getProject(id)).chapters[1]!;
      expect((await timings(rerendered.job_id!)).sentences.map((s) => s.text)).toContain('The stalls were empty.');
      expect(rerendered.edits).toEqual(chapter.edits);
      const audio = await gateway.api(`/api/v1/tts/jobs/${rerendered.job_id}/audio`);
      expectSpeech(Buffer.from(await audio.arrayBuffer()), { minSeconds: 2 });

      const captions = await exportSubtitles(id);
      expect(captions).toContain('The stalls were empty.');
      expect(captions).not.toContain('The stalls were full.');
    } finally {
      await send('DELETE', '/api/v1/tts/lexicon');
    }
  });

  it('undoes an edit edited back to the manuscript’s wording', async () => {
    const project = await ok<Project>(await send('POST', PROJECTS, { voice: VOICE, manuscript: { name: 'book.md', text: manuscript() } }));
    await render(project.project_id);
    const jobId = (await getProject(project.project_id)).chapters[1]!.job_id!;
    await ok(await editSentence(jobId, 'He bought a pear.', 'He bought a plum.'));
    expect((await getProject(project.project_id)).chapters[1]!.edits).toHaveLength(1);
    await ok(await editSentence(jobId, 'He bought a plum.', 'He bought a pear.'));
    const chapter = (await getProject(project.project_id)).chapters[1]!;
    expect([chapter.edits, chapter.needs_render]).toEqual([[], false]);
  });

  it('carries an edit through a manuscript change elsewhere, and flags it when its sentence changes', { timeout: 120_000 }, async () => {
    const project = await ok<Project>(await send('POST', PROJECTS, { voice: VOICE, manuscript: { name: 'book.md', text: manuscript() } }));
    const id = project.project_id;
    await render(id);
    await ok(await editSentence((await getProject(id)).chapters[1]!.job_id!, 'The stalls were full.', 'The stalls were empty.'));

    // another sentence of the chapter changes: the edit stays applied, the chapter is rendered with it
    const elsewhere = manuscript().replace('He bought a pear.', 'He bought two pears.');
    const moved = await ok<Project>(await send('PUT', `${PROJECTS}/${id}/manuscript`, { name: 'book.md', text: elsewhere }));
    expect(moved.chapters[1]!.edits.map((e) => [e.text, e.stale])).toEqual([['The stalls were empty.', false]]);
    spoken.clear();
    await render(id);
    // only the sentence that changed is synthesized; the edit's is the cache's, and in the audio
    expect(spoken.texts).toEqual(['He bought two pears.']);
    const said = (await timings((await getProject(id)).chapters[1]!.job_id!)).sentences.map((s) => s.text);
    expect(said).toEqual(expect.arrayContaining(['The stalls were empty.', 'He bought two pears.']));

    // the edited sentence itself changes: the edit is flagged, not applied
    const under = elsewhere.replace('The stalls were full.', 'The stalls were crowded.');
    const flagged = await ok<Project>(await send('PUT', `${PROJECTS}/${id}/manuscript`, { name: 'book.md', text: under }));
    expect(flagged.chapters[1]!.edits).toEqual([{ original: 'The stalls were full.', text: 'The stalls were empty.', stale: true }]);
    spoken.clear();
    await render(id);
    expect(spoken.joined()).toContain('The stalls were crowded.');
    const dismissed = await ok<Project>(await send('DELETE', `${PROJECTS}/${id}/chapters/1/edits/0`));
    expect(dismissed.chapters[1]!.edits).toEqual([]);
    expect((await send('DELETE', `${PROJECTS}/${id}/chapters/1/edits/0`)).status).toBe(404);
    expect((await send('DELETE', `${PROJECTS}/${id}/chapters/9/edits/0`)).status).toBe(404);
  });

  it('refuses to forget an edit that is in the chapter’s audio', async () => {
    const project = await ok<Project>(await send('POST', PROJECTS, { voice: VOICE, manuscript: { name: 'book.md', text: manuscript() } }));
    await render(project.project_id);
    await ok(
      await editSentence((await getProject(project.project_id)).chapters[0]!.job_id!, 'The sun rose over the hills.', 'The sun set.'),
    );
    const refused = await send('DELETE', `${PROJECTS}/${project.project_id}/chapters/0/edits/0`);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: { code: 'invalid_request', message: expect.stringContaining('edit its sentence back') },
    });
  });
});
