/**
 * Rendering a book as a narrator listens (docs/projects.md), over HTTP on a real gateway with the
 * embedded eSpeak NG: a chapter is done as soon as its audio is, whatever else runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, Project } from '../contract';
import { expectSpeech } from '../testing/audio';
import { prose } from '../testing/prose';
import { startTestGateway, type TestGateway } from '../testing/gateway';

const PROJECTS = '/api/v1/tts/projects';
const VOICE = 'espeak-ng:en-us';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({ maxTextLength: 200_000 });
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

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a chapter is done when its audio is', () => {
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

/** A book of `chapters` chapters of about `chars` characters each, headed "Chapter N". */
const book = (chapters: number, chars: number) =>
  Array.from({ length: chapters }, (_, i) => `## Chapter ${i + 1}\n\n${prose(chars)}\n`).join('\n');

describe('a book renders in reading order', () => {
  it('finishes its first chapter first, the last not started yet, and lets another client’s job through meanwhile', async () => {
    const project = await create(book(4, 2_000));
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
