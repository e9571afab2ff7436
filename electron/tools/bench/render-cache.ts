/**
 * The render cache's figures (`npm run bench:project`, docs/performance.md#the-render-cache-issue-35), on
 * gateways in this process with the embedded eSpeak NG and the machine's engine threads, on books
 * of Debian's licences in which no sentence is said twice (distinctSentences):
 * 1. A first render, against what it cost before the cache: the same chapters sent as plain jobs
 *    (chunks of up to 500 characters, no cache), each on a fresh gateway, in pairs whose order
 *    alternates.
 * 2. A lexicon fix of a name found in `k` sentences of a book of `words` words, each in another
 *    chapter: the render after it, against k × the first render's time per sentence + 2 s.
 * 3. The disk the cache takes per hour of the audio it holds.
 */
import type { Project, RenderCacheStats, RenderResult } from '../../contract';
import { bookMarkdown, distinctSentences } from '../../testing/book';
import { readEvents } from '../../testing/events';
import { startTestGateway, type TestGateway } from '../../testing/gateway';

const VOICE = 'espeak-ng:en-us';
/** The made-up name the fix is for, and what it is said as after it. */
const NAME = 'Quillfeather';
const ALIAS = 'Quill feather';

export interface CacheBenchOptions {
  /** Words of the book of the first-render pairs. */
  overheadWords: number;
  pairs: number;
  /** Words of the book the fix is made in. */
  fixWords: number;
  /** Sentences the name is in. */
  k: number;
}

async function ok<T>(response: Response, what: string): Promise<T> {
  if (response.status >= 300) throw new Error(`${what}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const seconds = (ms: number) => ms / 1000;

/**
 * Waits for the jobs' `done` events on the event stream, opened before they were queued, as a
 * client that follows them does: reading the project or the jobs over and over would load the
 * gateway's event loop (a 15-hour book's project is a megabyte of JSON) and time its polling.
 */
async function watchJobs(events: Response): Promise<(ids: string[]) => Promise<void>> {
  const ended = new Map<string, string>();
  let changed = () => {};
  const reading = (async () => {
    for await (const { event, data } of readEvents(events)) {
      if (event !== 'done' && event !== 'failed') continue;
      ended.set((data as { job_id: string }).job_id, event);
      changed();
    }
  })();
  reading.catch(() => undefined); // aborted once the bench is done with it
  return (ids) =>
    new Promise<void>((resolve, reject) => {
      changed = () => {
        const failed = ids.find((id) => ended.get(id) === 'failed');
        if (failed) reject(new Error(`job ${failed} failed`));
        else if (ids.every((id) => ended.has(id))) resolve();
      };
      changed();
      reading.then(() => reject(new Error('the event stream ended')), reject);
    });
}

/** Time from a start to its jobs done: wall, and this process's CPU (the gateway's, engine threads included). */
interface Timed {
  ms: number;
  cpuMs: number;
}

/** Runs `queue` (which starts jobs and says which) and waits until they are done. */
async function timedUntilDone(gateway: TestGateway, queue: () => Promise<string[]>): Promise<Timed> {
  const abort = new AbortController();
  const events = await gateway.api('/api/v1/tts/events', { signal: abort.signal });
  try {
    const until = await watchJobs(events);
    const started = performance.now();
    const cpu = process.cpuUsage();
    await until(await queue());
    const { user, system } = process.cpuUsage(cpu);
    return { ms: performance.now() - started, cpuMs: (user + system) / 1000 };
  } finally {
    abort.abort();
  }
}

/** Renders a project (a new one of `markdown`, or project `id` again) until it is up to date. */
async function renderProject(gateway: TestGateway, markdown: string, id?: string): Promise<Timed & { project: Project; queued: number }> {
  const projectId =
    id ??
    (
      await ok<Project>(
        await gateway.post('/api/v1/tts/projects', { voice: VOICE, manuscript: { name: 'book.md', text: markdown } }),
        'create',
      )
    ).project_id;
  let queued = 0;
  const timed = await timedUntilDone(gateway, async () => {
    const render = await ok<RenderResult>(await gateway.post(`/api/v1/tts/projects/${projectId}/render`, {}), 'render');
    queued = render.queued.length;
    return render.queued.map((q) => q.job_id);
  });
  const project = await ok<Project>(await gateway.api(`/api/v1/tts/projects/${projectId}`), 'project');
  if (project.render.state !== 'up_to_date') throw new Error(`the project is ${project.render.state} after its chapters' jobs`);
  return { ...timed, project, queued };
}

/** The chapters as a render sends them, as plain jobs at once: the render before the cache. */
function renderAsJobs(gateway: TestGateway, chapters: string[]): Promise<Timed> {
  return timedUntilDone(gateway, async () => {
    const ids: string[] = [];
    for (const text of chapters) {
      const job = await ok<{ job_id: string }>(await gateway.post('/api/v1/tts/synthesize', { text, voice: VOICE, mode: 'job' }), 'job');
      ids.push(job.job_id);
    }
    return ids;
  });
}

const fresh = () => startTestGateway({ maxTextLength: 2_000_000, maxQueuedChars: 20_000_000 });

async function withGateway<T>(work: (gateway: TestGateway) => Promise<T>): Promise<T> {
  const gateway = await fresh();
  try {
    return await work(gateway);
  } finally {
    await gateway.stop();
  }
}

const cacheStats = async (gateway: TestGateway) => ok<RenderCacheStats>(await gateway.api('/api/v1/tts/render-cache'), 'stats');

/** Part 1: the first render of a book, as a project (sentences through the cache) and as plain jobs, in pairs. */
export async function firstRenderPairs(options: CacheBenchOptions): Promise<{ jobs: Timed[]; project: Timed[]; sentences: number }> {
  const markdown = distinctSentences(bookMarkdown(options.overheadWords));
  const texts = (await withGateway(async (gateway) => {
    const created = await ok<Project>(
      await gateway.post('/api/v1/tts/projects', { voice: VOICE, manuscript: { name: 'book.md', text: markdown } }),
      'create',
    );
    return created.chapters.map((c) => c.text);
  })) as string[];
  const jobs: Timed[] = [];
  const project: Timed[] = [];
  let sentences = 0;
  const asJobs = () => withGateway((gateway) => renderAsJobs(gateway, texts));
  const asProject = () =>
    withGateway(async (gateway) => {
      const { ms, cpuMs } = await renderProject(gateway, markdown);
      sentences = (await cacheStats(gateway)).synthesized;
      return { ms, cpuMs };
    });
  for (let pair = 0; pair < options.pairs; pair++) {
    // each goes first in every other pair: the machine's speed drifts over minutes, and a drift
    // would otherwise count against whichever always ran second
    if (pair % 2 === 0) {
      jobs.push(await asJobs());
      project.push(await asProject());
    } else {
      project.push(await asProject());
      jobs.push(await asJobs());
    }
    const [job, made] = [jobs.at(-1)!, project.at(-1)!];
    console.log(
      `  pair ${pair + 1}: plain jobs ${seconds(job.ms).toFixed(1)} s (CPU ${seconds(job.cpuMs).toFixed(1)} s), ` +
        `project ${seconds(made.ms).toFixed(1)} s (CPU ${seconds(made.cpuMs).toFixed(1)} s)`,
    );
  }
  return { jobs, project, sentences };
}

/** The book with the name in `k` sentences of their own, each in another chapter, spread over the book. */
function bookWithName(words: number, k: number): string {
  const lines = distinctSentences(bookMarkdown(words)).split('\n');
  const chapterStarts = lines.flatMap((line, i) => (line.startsWith('## ') ? [i] : []));
  for (let n = 0; n < k; n++) {
    const start = chapterStarts[Math.floor(((n + 0.5) * chapterStarts.length) / k)]!;
    const paragraph = lines.findIndex((line, i) => i > start && line !== '' && !line.startsWith('#'));
    lines[paragraph] += ` ${NAME} nodded ${n + 2} times.`;
  }
  return lines.join('\n');
}

export interface FixFigures {
  sentences: number;
  chapters: number;
  firstMs: number;
  fixMs: number;
  fixSynthesized: number;
  chaptersQueued: number;
  stats: RenderCacheStats;
  audioSeconds: number;
}

/** Parts 2 and 3: a book rendered, then the lexicon fix of a name in `k` sentences rendered. */
export async function lexiconFix(options: CacheBenchOptions): Promise<FixFigures> {
  return withGateway(async (gateway) => {
    const { ms: firstMs, project } = await renderProject(gateway, bookWithName(options.fixWords, options.k));
    const before = await cacheStats(gateway);
    const entry = { grapheme: NAME, alias: ALIAS, language: 'en' };
    await ok(
      await gateway.api('/api/v1/tts/lexicon', {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ entries: [entry] }),
      }),
      'lexicon',
    );
    const { ms: fixMs, project: fixed, queued } = await renderProject(gateway, '', project.project_id);
    const stats = await cacheStats(gateway);
    let audioSeconds = 0;
    for (const chapter of fixed.chapters) {
      const job = await ok<{ audio?: { duration_s: number } }>(await gateway.api(`/api/v1/tts/jobs/${chapter.job_id}`), 'job');
      audioSeconds += job.audio?.duration_s ?? 0;
    }
    return {
      sentences: before.synthesized,
      chapters: project.chapters.length,
      firstMs,
      fixMs,
      fixSynthesized: stats.synthesized - before.synthesized,
      chaptersQueued: queued,
      stats,
      audioSeconds,
    };
  });
}
