/**
 * Projects over HTTP on a real gateway with the embedded eSpeak NG: a Markdown manuscript becomes
 * chapters, a render synthesizes each once, and only a chapter whose text as spoken changed (its
 * text, or a lexicon entry found only in it) is synthesized again; counted at the engine.
 */
import { strToU8, zipSync } from 'fflate';
import { parseBuffer } from 'music-metadata';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PROJECT_LIMITS, type Export, type Project, type ProjectRenderProgress, type RenderResult } from '../contract';
import { expectSpeech } from '../testing/audio';
import { recordSpoken, type SpokenTexts } from '../testing/engine-calls';
import { startTestGateway, waitForJob, type TestGateway } from '../testing/gateway';
import { docx } from '../testing/docx';
import { until } from '../testing/until';

const PROJECTS = '/api/v1/tts/projects';
const VOICE = 'espeak-ng:en-us';
const MANUSCRIPT = `## The Hills
The sun rose over the hills.

## The Market
Zorblat walked to the market.

## The Night
Night fell quietly.
`;

/** A book of its own for the progress test. */
const FOLLOWED = `## The Well
Mirela drew water from the well.

## The Road
The cart rolled down the road.

## The Inn
They slept at the inn.
`;

let gateway: TestGateway;
/** Texts the engine was asked to speak since the last clear. */
let spoken: SpokenTexts;
beforeAll(async () => {
  gateway = await startTestGateway({ maxTextLength: 5_000 });
  spoken = recordSpoken(gateway, VOICE);
});
afterAll(() => gateway.stop());
beforeEach(() => spoken.clear());

const send = (method: string, route: string, body?: unknown) =>
  gateway.api(route, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error;

async function create(text = MANUSCRIPT, name = 'book.md'): Promise<Project> {
  const response = await send('POST', PROJECTS, { voice: VOICE, author: 'A. Writer', manuscript: { name, text } });
  expect(response.status).toBe(201);
  expect(response.headers.get('location')).toMatch(/\/projects\/[0-9a-f-]{36}$/);
  return (await response.json()) as Project;
}

/** Renders and waits for every queued job; returns the render's answer. */
async function render(project: Project): Promise<RenderResult> {
  const response = await send('POST', `${PROJECTS}/${project.project_id}/render`);
  expect(response.status).toBe(200);
  const result = (await response.json()) as RenderResult;
  for (const { job_id } of result.queued) expect((await waitForJob(gateway, job_id)).status).toBe('done');
  return result;
}

async function bad(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect((await errorOf(response)).code).toBe(code);
}

const get = async (project: Project) => (await (await gateway.api(`${PROJECTS}/${project.project_id}`)).json()) as Project;

describe('projects', () => {
  it('cuts a Markdown manuscript into its three chapters, titled by their headings', async () => {
    const project = await create();
    expect(project.title).toBe('book');
    expect(project.voice).toBe(VOICE);
    expect(project.chapters.map((c) => [c.index, c.title, c.status, c.needs_render])).toEqual([
      [0, 'The Hills', 'not_rendered', true],
      [1, 'The Market', 'not_rendered', true],
      [2, 'The Night', 'not_rendered', true],
    ]);
    expect(project.chapters[1]!.text).toBe('The Market\n\nZorblat walked to the market.');
    const list = (await (await gateway.api(PROJECTS)).json()) as { projects: { project_id: string; chapter_count: number }[] };
    expect(list.projects.find((p) => p.project_id === project.project_id)?.chapter_count).toBe(3);
  });

  it('follows a render by its progress: the project’s chapter states without their texts', async () => {
    // its own sentences: the render cache would take another test's from an earlier render
    const project = await create(FOLLOWED);
    const progress = async () => {
      const response = await gateway.api(`${PROJECTS}/${project.project_id}/progress`);
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).not.toContain('Mirela');
      return JSON.parse(text) as ProjectRenderProgress;
    };
    const asProgress = ({ render, chapters }: Project): ProjectRenderProgress => ({
      render,
      chapters: chapters.map(({ title: _t, text: _x, characters: _c, edits: _e, part: _p, front_matter: _f, ...state }) => state),
    });
    expect(await progress()).toEqual(asProgress(project));
    expect((await progress()).render.state).toBe('needs_render');

    gateway.pauseQueue();
    const queued = (await (await send('POST', `${PROJECTS}/${project.project_id}/render`)).json()) as RenderResult;
    const rendering = await progress();
    expect(rendering.render.state).toBe('rendering');
    expect(rendering.chapters.map((c) => [c.status, c.job_id])).toEqual(queued.queued.map((q) => ['queued', q.job_id]));
    expect(rendering).toEqual(asProgress(await get(project)));
    gateway.resumeQueue();
    for (const { job_id } of queued.queued) expect((await waitForJob(gateway, job_id)).status).toBe('done');
    const done = await progress();
    expect(done.render).toMatchObject({ state: 'up_to_date', chapters_done: 3, chapters_total: 3 });
    expect(done).toEqual(asProgress(await get(project)));

    await bad(await gateway.api(`${PROJECTS}/00000000-0000-4000-8000-000000000000/progress`), 404, 'project_not_found');
  });

  it('renders each chapter once, then only what changed: its text, or a lexicon entry found in it', async () => {
    const project = await create();
    const first = await render(project);
    expect(first.queued.map((q) => q.index)).toEqual([0, 1, 2]);
    expect(spoken.joined()).toContain('Zorblat');
    const rendered = await get(project);
    expect(rendered.chapters.map((c) => [c.status, c.needs_render])).toEqual(Array(3).fill(['done', false]));
    for (const chapter of rendered.chapters) {
      const audio = await gateway.api(`/api/v1/tts/jobs/${chapter.job_id}/audio`);
      expectSpeech(Buffer.from(await audio.arrayBuffer()), { minSeconds: 1, maxSeconds: 10 });
    }

    spoken.clear();
    const again = await render(project);
    expect(again.queued).toEqual([]);
    expect(again.unchanged).toEqual([0, 1, 2]);
    expect(spoken.texts).toEqual([]);

    const edited = MANUSCRIPT.replace('Night fell quietly.', 'Night fell, and the owls woke.');
    const replaced = await send('PUT', `${PROJECTS}/${project.project_id}/manuscript`, { name: 'book.md', text: edited });
    expect(replaced.status).toBe(200);
    const afterEdit = (await replaced.json()) as Project;
    expect(afterEdit.chapters.map((c) => c.needs_render)).toEqual([false, false, true]);
    expect(afterEdit.chapters[0]!.job_id).toBe(rendered.chapters[0]!.job_id);
    // the old job of the changed chapter went with its text
    expect((await gateway.api(`/api/v1/tts/jobs/${rendered.chapters[2]!.job_id}`)).status).toBe(404);
    const third = await render(project);
    expect(third.queued.map((q) => q.index)).toEqual([2]);
    expect(spoken.joined()).toContain('owls');
    expect(spoken.joined()).not.toMatch(/Zorblat|hills/);

    const lexicon = await send('PATCH', '/api/v1/tts/lexicon', {
      entries: [{ grapheme: 'Zorblat', alias: 'Zed the Great', language: 'en' }],
    });
    expect(lexicon.status).toBe(200);
    try {
      expect((await get(project)).chapters.map((c) => c.needs_render)).toEqual([false, true, false]);
      spoken.clear();
      const fourth = await render(project);
      expect(fourth.queued.map((q) => q.index)).toEqual([1]);
      expect(fourth.unchanged).toEqual([0, 2]);
      expect(spoken.joined()).toContain('Zed the Great');
      expect(spoken.joined()).not.toMatch(/owls|hills/);
    } finally {
      await send('DELETE', '/api/v1/tts/lexicon');
    }
  });

  it('exports a rendered project as an M4B: its chapters in order, titled as its chapters, tagged as the project', async () => {
    const project = await create();
    const early = await send('POST', `${PROJECTS}/${project.project_id}/export`, { format: 'm4b' });
    expect(early.status).toBe(409);
    expect(await errorOf(early)).toMatchObject({ code: 'project_not_rendered', message: expect.stringContaining('Chapters 1, 2, 3') });
    await render(project);
    const accepted = await send('POST', `${PROJECTS}/${project.project_id}/export`, { format: 'm4b' });
    expect(accepted.status).toBe(202);
    const { poll } = (await accepted.json()) as { poll: string };
    const made = await until(async () => {
      const now = (await (await gateway.api(poll)).json()) as Export;
      return now.status === 'running' ? undefined : now;
    });
    expect(made.status, JSON.stringify(made.error)).toBe('done');
    const bytes = new Uint8Array(await (await gateway.api(made.file!.url)).arrayBuffer());
    const { format, common } = await parseBuffer(bytes, { mimeType: 'audio/mp4' }, { includeChapters: true });
    expect(format.chapters?.map((c) => c.title)).toEqual(['The Hills', 'The Market', 'The Night']);
    expect([common.title, common.artist]).toEqual(['book', 'A. Writer']);
    expect(format.duration).toBeGreaterThan(3);
    await bad(await send('POST', `${PROJECTS}/${project.project_id}/export`, { format: 'wav' }), 400, 'invalid_request');
    await bad(await send('POST', `${PROJECTS}/${project.project_id}/export`, { format: 'm4b', job_ids: [] }), 400, 'invalid_request');
  });

  it('renders every chapter again when the voice settings change, and deletes its jobs with it', async () => {
    const project = await create('Chapter 1\nOne.\nChapter 2\nTwo.\n', 'story.txt');
    expect(project.chapters.map((c) => c.title)).toEqual(['Chapter 1', 'Chapter 2']);
    const first = await render(project);
    const patched = await send('PATCH', `${PROJECTS}/${project.project_id}`, { rate: 1.5, title: 'Story' });
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as Project).chapters.every((c) => c.needs_render)).toBe(true);
    const second = await render(project);
    expect(second.queued).toHaveLength(2);
    for (const { job_id } of first.queued) expect((await gateway.api(`/api/v1/tts/jobs/${job_id}`)).status).toBe(404);

    expect((await send('DELETE', `${PROJECTS}/${project.project_id}`)).status).toBe(204);
    expect((await gateway.api(`${PROJECTS}/${project.project_id}`)).status).toBe(404);
    for (const { job_id } of second.queued) expect((await gateway.api(`/api/v1/tts/jobs/${job_id}`)).status).toBe(404);
  });

  /** A two-chapter travel book sent as `name`: its chapters are Arrival and Departure, each with its sentence. */
  async function expectTravels(name: string, book: Uint8Array): Promise<void> {
    const response = await send('POST', PROJECTS, { manuscript: { name, data: Buffer.from(book).toString('base64') } });
    expect(response.status).toBe(201);
    const project = (await response.json()) as Project;
    expect(project.chapters.map((c) => [c.title, c.text])).toEqual([
      ['Arrival', 'Arrival\n\nThe train was late.'],
      ['Departure', 'Departure\n\nThe boat was early.'],
    ]);
    expect((await send('DELETE', `${PROJECTS}/${project.project_id}`)).status).toBe(204);
  }

  it('reads an EPUB sent as base64: its spine documents are the chapters', async () => {
    const page = (body: string) => `<html xmlns="http://www.w3.org/1999/xhtml"><body>${body}</body></html>`;
    const book = zipSync({
      'META-INF/container.xml': strToU8('<container><rootfiles><rootfile full-path="book.opf"/></rootfiles></container>'),
      'book.opf': strToU8(
        '<package><manifest><item id="a" href="a.xhtml"/><item id="b" href="b.xhtml"/></manifest><spine><itemref idref="a"/><itemref idref="b"/></spine></package>',
      ),
      'a.xhtml': strToU8(page('<h1>Arrival</h1><p>The train was late.</p>')),
      'b.xhtml': strToU8(page('<h2>Departure</h2><p>The boat was early.</p>')),
    });
    await expectTravels('Travels.epub', book);
  });

  it('reads a Word document sent as base64: its Heading 1 paragraphs start the chapters', async () => {
    const book = docx([
      { style: 'Heading1', runs: ['Arrival'] },
      { runs: ['The train was ', 'late.'] },
      { style: 'Heading1', runs: ['Departure'] },
      { runs: ['The boat was early.'] },
    ]);
    await expectTravels('Travels.docx', book);
    await bad(await send('POST', PROJECTS, { manuscript: { name: 'a.docx', data: 'bm90IGEgemlw' } }), 400, 'invalid_request');
  });

  it('answers bad input with clear JSON errors', async () => {
    await bad(await send('POST', PROJECTS, { manuscript: { name: 'book.pdf', text: 'Hi.' } }), 415, 'unsupported_media_type');
    await bad(await send('POST', PROJECTS, { manuscript: { name: 'book.md', text: '  \n' } }), 400, 'invalid_request');
    await bad(await send('POST', PROJECTS, { manuscript: { name: 'book.txt', text: 'x'.repeat(5_001) } }), 413, 'text_too_long');
    const many = Array.from({ length: PROJECT_LIMITS.chapters + 1 }, (_, i) => `# ${i}\nA.`).join('\n');
    await bad(await send('POST', PROJECTS, { manuscript: { name: 'book.md', text: many } }), 413, 'too_many_chapters');
    await bad(await send('POST', PROJECTS, { voice: 'espeak-ng:nope', manuscript: { name: 'a.txt', text: 'Hi.' } }), 422, 'unknown_voice');
    await bad(await send('POST', PROJECTS, { manuscript: { name: 'a.txt' } }), 400, 'invalid_request');
    await bad(await send('POST', PROJECTS, { rate: 9, manuscript: { name: 'a.txt', text: 'Hi.' } }), 400, 'invalid_request');
    await bad(await send('POST', PROJECTS, { manuscript: { name: 'a.epub', text: 'Hi.' } }), 400, 'invalid_request');
    await bad(await send('POST', PROJECTS, { manuscript: { name: 'a.epub', data: 'bm90IGEgemlw' } }), 400, 'invalid_request');
    await bad(await gateway.api(`${PROJECTS}/nope`), 404, 'project_not_found');
    await bad(await send('POST', `${PROJECTS}/00000000-0000-4000-8000-000000000000/render`), 404, 'project_not_found');
    const project = await create('Hi.', 'a.txt');
    await bad(await send('PATCH', `${PROJECTS}/${project.project_id}`, { title: ' ' }), 400, 'invalid_request');
    await bad(await send('PATCH', `${PROJECTS}/${project.project_id}`, { title: 'a\nb' }), 400, 'invalid_request');
    await bad(await send('PUT', `${PROJECTS}/${project.project_id}/manuscript`, { name: '../a.txt', text: 'Hi.' }), 400, 'invalid_request');
    expect((await send('DELETE', `${PROJECTS}/${project.project_id}`)).status).toBe(204);
  });
});
