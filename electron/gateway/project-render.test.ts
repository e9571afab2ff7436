/**
 * Rendering a book as a narrator listens (docs/projects.md), over HTTP on a real gateway with the
 * embedded eSpeak NG: a chapter is done as soon as its audio is, whatever else runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, JobTimings, Project, RenderResult } from '../contract';
import { expectSpeech } from '../testing/audio';
import { distinctProse, OTHER_CLIENT_TEXT, prose } from '../testing/prose';
import { EMBEDDED_BATCH_CHARS } from '../engines/embedded';
import { recordSpoken, type SpokenTexts } from '../testing/engine-calls';
import { startTestGateway, waitForJob, type TestGateway } from '../testing/gateway';
import { until } from '../testing/until';

const PROJECTS = '/api/v1/tts/projects';
const VOICE = 'espeak-ng:en-us';

let gateway: TestGateway;
let spoken: SpokenTexts;
beforeAll(async () => {
  gateway = await startTestGateway({ maxTextLength: 200_000 });
  spoken = recordSpoken(gateway, VOICE);
});
afterAll(() => gateway.stop());

const json = async <T>(response: Response): Promise<T> => {
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return (await response.json()) as T;
};
const send = (method: string, route: string, body?: unknown) =>
  gateway.api(route, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
const getProject = async (id: string) => json<Project>(await gateway.api(`${PROJECTS}/${id}`));

async function create(text: string, name = 'book.md'): Promise<Project> {
  return json<Project>(await send('POST', PROJECTS, { voice: VOICE, manuscript: { name, text } }));
}

const jobStatus = async (id: string) => ((await (await gateway.api(`/api/v1/tts/jobs/${id}`)).json()) as { status: string }).status;

describe('a chapter is done when its audio is', { timeout: 180_000 }, () => {
  it('a one-chapter project rendered behind four long jobs is done while they still run', async () => {
    // four long jobs hold every writer of audio that streams as it is synthesized (assembler.ts)
    const long: string[] = [];
    for (let i = 0; i < 4; i++) {
      const answer = await json<{ job_id: string }>(
        await gateway.post('/api/v1/tts/synthesize', { text: prose(8_000), voice: VOICE, mode: 'job' }),
      );
      long.push(answer.job_id);
    }
    // each has its writer once its first chunk is in
    await until(async () => {
      const jobs = await Promise.all(long.map(async (id) => (await (await gateway.api(`/api/v1/tts/jobs/${id}`)).json()) as Job));
      return jobs.every((job) => job.progress.done > 0) || undefined;
    });
    const project = await create('## A Note\n\nThe sun rose over the hills. The river ran on.\n');
    await json(await send('POST', `${PROJECTS}/${project.project_id}/render`));
    const done = await until(async () => {
      const chapter = (await getProject(project.project_id)).chapters[0]!;
      return chapter.status === 'done' ? chapter : undefined;
    });
    const still = await Promise.all(long.map(jobStatus));
    for (const id of long) await send('DELETE', `/api/v1/tts/jobs/${id}`);
    expect(still).toEqual(['running', 'running', 'running', 'running']);
    const audio = await gateway.api(`/api/v1/tts/jobs/${done.job_id}/audio`);
    expectSpeech(Buffer.from(await audio.arrayBuffer()), { minSeconds: 2, maxSeconds: 15 });
  });
});

/**
 * A book of `chapters` chapters of about `chars` characters each, headed "Chapter N", in which no
 * sentence is said twice, nor said in another test's book (`name`): the render cache would
 * synthesize it once.
 */
/** Sentences that `units` units of an embedded engine hold at most (EMBEDDED_BATCH_CHARS each), the shortest of `texts` in each. */
const sentencesOfUnits = (units: number, texts: string[]) =>
  units * Math.ceil(EMBEDDED_BATCH_CHARS / Math.min(...texts.map((t) => t.length)));

const book = (name: string, chapters: number, chars: number) =>
  Array.from({ length: chapters }, (_, i) => `## Chapter ${i + 1}\n\n${distinctProse(chars, `${name} ${i + 1}`)}\n`).join('\n');

describe('a book renders in reading order', { timeout: 180_000 }, () => {
  it('finishes its first chapter first, the last not started yet, and lets another client’s job through meanwhile', async () => {
    const project = await create(book('the order book', 4, 2_000));
    await json(await send('POST', `${PROJECTS}/${project.project_id}/render`));
    const other = await json<{ job_id: string }>(
      await gateway.post('/api/v1/tts/synthesize', { text: prose(900), voice: VOICE, mode: 'job' }),
    );
    const doneOrder: number[] = [];
    let lastWhenFirstDone: Project['chapters'][number]['progress'] | undefined;
    let otherDoneBefore: number | undefined;
    await until(async () => {
      const { chapters } = await getProject(project.project_id);
      for (const chapter of chapters) {
        if (chapter.status === 'done' && !doneOrder.includes(chapter.index)) doneOrder.push(chapter.index);
      }
      if (doneOrder.length > 0) lastWhenFirstDone ??= chapters[3]!.progress;
      if (otherDoneBefore === undefined && (await jobStatus(other.job_id)) === 'done') otherDoneBefore = doneOrder.length;
      return doneOrder.length === 4 || undefined;
    });
    expect(doneOrder).toEqual([0, 1, 2, 3]);
    expect(lastWhenFirstDone?.done).toBe(0);
    // the other job took its turns beside the book's: done before the book's last chapter
    expect(otherDoneBefore).toBeLessThan(4);
  });
});

const action = async (project: Project, name: 'pause' | 'resume' | 'cancel' | 'render') =>
  json<Project & { project?: Project }>(await send('POST', `${PROJECTS}/${project.project_id}/${name}`));

/** Every chapter done: each one's audio is speech, as long as its timings say, each sentence once. */
async function expectWholeBook(project: Project): Promise<Project> {
  const finished = await until(async () => {
    const now = await getProject(project.project_id);
    return now.render.state === 'up_to_date' ? now : undefined;
  });
  for (const chapter of finished.chapters) {
    const audio = Buffer.from(await (await gateway.api(`/api/v1/tts/jobs/${chapter.job_id}/audio`)).arrayBuffer());
    const seconds = expectSpeech(audio, { minSeconds: 5 });
    const timings = await json<JobTimings>(await gateway.api(`/api/v1/tts/jobs/${chapter.job_id}/timings`));
    expect(timings.duration_s).toBeCloseTo(seconds, 2);
    expect(timings.sentences.map((s) => s.text).join(' ')).toBe(chapter.text.replace(/\s+/g, ' '));
  }
  return finished;
}

const chunksDone = async (project: Project) => (await getProject(project.project_id)).render.chunks_done;
/** Words of every sentence of `prose`, the books' text. */
const BOOK_WORDS = /river|old book|storm|lamps/;

describe('pause, resume, cancel and continue', { timeout: 180_000 }, () => {
  it('pauses a render with nothing more synthesized, and resumes it where it stopped', async () => {
    const project = await create(book('the paused book', 2, 2_500));
    spoken.clear();
    await json(await send('POST', `${PROJECTS}/${project.project_id}/render`));
    await until(async () => ((await chunksDone(project)) >= 2 ? true : undefined));
    const paused = await action(project, 'pause');
    expect(paused.render.state).toBe('paused');
    expect(paused.chapters.map((c) => c.status)).toEqual(['paused', 'paused']);
    const job = await json<Job>(await gateway.api(`/api/v1/tts/jobs/${paused.chapters[0]!.job_id}`));
    expect([job.status, job.paused]).toEqual(['running', true]);
    // chunks in flight at the pause were dropped before it answered; from then on the engine
    // serves others: another client's whole job runs, and not one of the book's chunks with it
    const heard = spoken.texts.length;
    const other = await json<{ job_id: string }>(
      await gateway.post('/api/v1/tts/synthesize', { text: OTHER_CLIENT_TEXT, voice: VOICE, mode: 'job' }),
    );
    expect((await waitForJob(gateway, other.job_id)).status).toBe('done');
    const sincePause = spoken.texts.slice(heard);
    expect(sincePause.join(' ')).toContain('Quillon');
    expect(sincePause.filter((text) => BOOK_WORDS.test(text))).toEqual([]);
    expect(await chunksDone(project)).toBe(paused.render.chunks_done);

    const resumed = await action(project, 'resume');
    expect(resumed.render.state).toBe('rendering');
    const done = await expectWholeBook(project);
    // each chunk once, but those in flight at the pause: per engine thread (two), one unit being
    // synthesized and one whose audio was back but not yet saved
    const bookTexts = spoken.texts.filter((text) => BOOK_WORDS.test(text));
    expect(bookTexts.length).toBeLessThanOrEqual(done.render.chunks_total + sentencesOfUnits(4, bookTexts));
    expect(done.render).toMatchObject({ chapters_done: 2, chapters_total: 2 });
  });

  it('cancels a render keeping its finished chunks, and the next render continues it', async () => {
    const project = await create(book('the cancelled book', 2, 2_500));
    await json(await send('POST', `${PROJECTS}/${project.project_id}/render`));
    await until(async () => ((await chunksDone(project)) >= 2 ? true : undefined));
    await action(project, 'pause');
    const cancelled = await action(project, 'cancel');
    expect(cancelled.chapters.map((c) => [c.status, c.needs_render])).toEqual([
      ['cancelled', true],
      ['cancelled', true],
    ]);
    expect(cancelled.render.state).toBe('needs_render');
    const saved = cancelled.chapters[0]!.progress.done;
    expect(saved).toBeGreaterThanOrEqual(1);

    spoken.clear();
    const rendered = (await action(project, 'render')) as unknown as RenderResult;
    expect(rendered.queued).toEqual(cancelled.chapters.map((c) => ({ index: c.index, job_id: c.job_id, continued: true })));
    expect(rendered.project.chapters[0]!.progress.done).toBe(saved);
    const done = await expectWholeBook(project);
    // the chunks not saved, less those synthesized before the pause whose audio the render cache
    // kept (per engine thread, one unit being synthesized and one back but not yet saved; a unit
    // is sentences of up to EMBEDDED_BATCH_CHARS characters together)
    const unsaved = done.render.chunks_total - saved;
    expect(spoken.texts.length).toBeLessThanOrEqual(unsaved);
    expect(spoken.texts.length).toBeGreaterThanOrEqual(unsaved - sentencesOfUnits(4, spoken.texts));
    expect(new Set(spoken.texts).size).toBe(spoken.texts.length);
  });

  it('continues a chapter cancelled from the job list from its saved chunks', async () => {
    const project = await create(book('the listed book', 1, 3_000));
    await json(await send('POST', `${PROJECTS}/${project.project_id}/render`));
    await until(async () => ((await chunksDone(project)) >= 2 ? true : undefined));
    const jobId = (await getProject(project.project_id)).chapters[0]!.job_id!;
    const cancelled = await json<Job>(await send('DELETE', `/api/v1/tts/jobs/${jobId}`));
    expect([cancelled.status, cancelled.error?.code]).toEqual(['failed', 'cancelled']);
    const chapter = (await getProject(project.project_id)).chapters[0]!;
    expect([chapter.status, chapter.needs_render, chapter.error?.code]).toEqual(['cancelled', true, 'cancelled']);
    const saved = chapter.progress.done;
    expect(saved).toBeGreaterThanOrEqual(2);
    const rendered = (await action(project, 'render')) as unknown as RenderResult;
    expect(rendered.queued).toEqual([{ index: 0, job_id: jobId, continued: true }]);
    expect(rendered.project.chapters[0]!.progress.done).toBe(saved);
    await expectWholeBook(project);
  });
});
