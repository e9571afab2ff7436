/**
 * A project rendered by worker hosts on a Redis queue (docs/projects.md): its chapters come in
 * reading order (BullMQ hands tasks out first in, first out, and a render queues chapters in
 * order), and pause, resume, cancel and the render that continues a cancel work as on the
 * embedded queue: a chunk saved is never synthesized again.
 */
import { describe, expect, it } from 'vitest';
import type { Job, Project, RenderResult } from '../../contract';
import { expectSpeech } from '../../testing/audio';
import type { GatewayProcess, WorkerHostProcess } from '../../testing/process';
import { distinctProse, OTHER_CLIENT_TEXT } from '../../testing/prose';
import { redisMissing, useRedisQueue } from '../../testing/redis';
import { until } from '../../testing/until';

const skipReason = redisMissing();
if (skipReason) console.log(`Skipped: ${skipReason}.`);

const queue = useRedisQueue('orator-project-hosts-');
const PROJECTS = '/api/v1/tts/projects';

/** The chunks of a job a worker host started, in order, and where each start stands in its log. */
function startsIn(host: WorkerHostProcess, jobId: string): { chunk: number; at: number }[] {
  const pattern = new RegExp(`chunk (\\d+) of job ${jobId} `, 'g');
  return [...host.output().matchAll(pattern)].map((match) => ({ chunk: Number(match[1]), at: match.index }));
}
const startsOf = (host: WorkerHostProcess, jobId: string) => startsIn(host, jobId).map((start) => start.chunk);

describe.skipIf(skipReason)('a project on worker hosts', () => {
  it('renders in reading order, pauses, resumes, cancels and continues from saved chunks', { timeout: 600_000 }, async () => {
    const { gateway } = await queue.start();
    const host = await queue.host(gateway, 'host', ['--concurrency', '1']);
    const post = async <T>(route: string, body?: unknown): Promise<T> => {
      const response = await gateway.api(route, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body ?? {}),
      });
      expect(response.status, await response.clone().text()).toBeLessThan(300);
      return (await response.json()) as T;
    };
    const get = async (id: string) => (await (await gateway.api(`${PROJECTS}/${id}`)).json()) as Project;
    // chapters that say nothing alike: a sentence the first said would come from the render cache
    const manuscript = [1, 2].map((n) => `## Chapter ${n}\n\n${distinctProse(1_500, `chapter ${n}`)}\n`).join('\n');
    const project = await post<Project>(PROJECTS, { manuscript: { name: 'book.md', text: manuscript } });
    const id = project.project_id;

    await post(`${PROJECTS}/${id}/render`);
    // every chunk of the first chapter starts before the second's first (its sentences are short
    // chunks: the host may take some of the second while the gateway joins the first)
    const firstDone = await until(async () => {
      const now = await get(id);
      return now.chapters[0]!.status === 'done' ? now : undefined;
    }, 240_000);
    const [first, next] = firstDone.chapters.map((chapter) => startsIn(host, chapter.job_id!));
    expect(first!.map((start) => start.chunk)).toEqual([...Array(first!.length).keys()]);
    expect(first!.length).toBe(firstDone.chapters[0]!.progress.total);
    expect(next!.every((start) => start.at > first!.at(-1)!.at)).toBe(true);

    await until(async () => ((await get(id)).chapters[1]!.progress.done >= 1 ? true : undefined));
    const paused = await post<Project>(`${PROJECTS}/${id}/pause`);
    expect(paused.chapters[1]!.status).toBe('paused');
    const second = paused.chapters[1]!.job_id!;
    const startedAtPause = startsOf(host, second).length;
    // the host (one chunk at a time) ends the chunk it held, then serves another client's job,
    // queued after the book's chapter: not one chunk of the paused chapter goes before or with it
    const other = await post<{ job_id: string }>('/api/v1/tts/synthesize', { text: OTHER_CLIENT_TEXT, voice: project.voice, mode: 'job' });
    await until(async () => ((await (await gateway.api(`/api/v1/tts/jobs/${other.job_id}`)).json()) as Job).status === 'done' || undefined);
    const log = host.output();
    const otherFirst = log.indexOf(`of job ${other.job_id} `);
    expect(otherFirst).toBeGreaterThan(-1);
    expect(startsOf(host, second).length - startedAtPause).toBeLessThanOrEqual(1);
    expect(log.slice(otherFirst)).not.toContain(`of job ${second} `);
    const kept = (await get(id)).chapters[1]!.progress.done;
    expect((await post<Project>(`${PROJECTS}/${id}/resume`)).chapters[1]!.status).not.toBe('paused');
    await until(async () => ((await get(id)).chapters[1]!.progress.done > kept ? true : undefined));

    const cancelled = await post<Project>(`${PROJECTS}/${id}/cancel`);
    const saved = cancelled.chapters[1]!.progress.done;
    expect([cancelled.chapters[1]!.status, saved > 0]).toEqual(['cancelled', true]);
    const startsAtCancel = startsOf(host, second).length;
    const rendered = await post<RenderResult>(`${PROJECTS}/${id}/render`);
    expect(rendered.queued).toEqual([{ index: 1, job_id: second, continued: true }]);
    const finished = await until(async () => {
      const now = await get(id);
      return now.render.state === 'up_to_date' ? now : undefined;
    }, 240_000);
    // the chunks saved before the cancel were not started again (the host takes them in order)
    const continued = startsOf(host, second).slice(startsAtCancel);
    expect(continued.length).toBeGreaterThan(0);
    expect(continued.filter((idx) => idx < saved)).toEqual([]);
    await expectAudio(gateway, finished);
  });
});

async function expectAudio(gateway: GatewayProcess, project: Project): Promise<void> {
  for (const chapter of project.chapters) {
    const audio = Buffer.from(await (await gateway.api(`/api/v1/tts/jobs/${chapter.job_id}/audio`)).arrayBuffer());
    expectSpeech(audio, { minSeconds: 5 });
  }
}
