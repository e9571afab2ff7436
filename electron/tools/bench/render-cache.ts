/**
 * The render cache's figures (`npm run bench:project`, docs/performance.md#the-render-cache-issue-35), on
 * gateways in this process with the embedded eSpeak NG and the machine's engine threads, on books
 * of Debian's licences in which no sentence is said twice (distinctSentences):
 * 1. A first render, against what it cost before the cache: the same chapters sent as plain jobs
 *    (chunks of up to 500 characters, no cache), each on a fresh gateway, in alternating pairs.
 * 2. A lexicon fix of a name found in `k` sentences of a book of `words` words, each in another
 *    chapter: the render after it, against k × the first render's time per sentence + 2 s.
 * 3. The disk the cache takes per hour of the audio it holds.
 */
import type { Project, RenderCacheStats } from '../../contract';
import { bookMarkdown, distinctSentences } from '../../testing/book';
import { startTestGateway, type TestGateway } from '../../testing/gateway';

const VOICE = 'espeak-ng:en-us';
const POLL_MS = 100;
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

/** Waits until the project's every chapter is rendered and up to date; its project. */
async function rendered(gateway: TestGateway, id: string): Promise<Project> {
  for (;;) {
    const project = await ok<Project>(await gateway.api(`/api/v1/tts/projects/${id}`), 'project');
    if (project.render.state === 'up_to_date') return project;
    if (project.chapters.some((c) => c.status === 'failed')) throw new Error('a chapter failed');
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function renderProject(gateway: TestGateway, markdown: string): Promise<{ ms: number; project: Project }> {
  const created = await ok<Project>(
    await gateway.post('/api/v1/tts/projects', { voice: VOICE, manuscript: { name: 'book.md', text: markdown } }),
    'create',
  );
  const started = performance.now();
  await ok(await gateway.post(`/api/v1/tts/projects/${created.project_id}/render`, {}), 'render');
  const project = await rendered(gateway, created.project_id);
  return { ms: performance.now() - started, project };
}

/** The chapters as a render sends them, as plain jobs at once: the render before the cache. */
async function renderAsJobs(gateway: TestGateway, chapters: string[]): Promise<number> {
  const started = performance.now();
  const ids: string[] = [];
  for (const text of chapters) {
    ids.push(
      (await ok<{ job_id: string }>(await gateway.post('/api/v1/tts/synthesize', { text, voice: VOICE, mode: 'job' }), 'job')).job_id,
    );
  }
  for (const id of ids) {
    for (;;) {
      const job = await ok<{ status: string }>(await gateway.api(`/api/v1/tts/jobs/${id}`), 'job');
      if (job.status === 'failed') throw new Error(`job ${id} failed`);
      if (job.status === 'done') break;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
  return performance.now() - started;
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

/** Part 1: the first render of a book, as a project (sentences through the cache) and as plain jobs; ms of each, in pairs. */
export async function firstRenderPairs(options: CacheBenchOptions): Promise<{ jobs: number[]; project: number[]; sentences: number }> {
  const markdown = distinctSentences(bookMarkdown(options.overheadWords));
  const texts = (await withGateway(async (gateway) => {
    const created = await ok<Project>(
      await gateway.post('/api/v1/tts/projects', { voice: VOICE, manuscript: { name: 'book.md', text: markdown } }),
      'create',
    );
    return created.chapters.map((c) => c.text);
  })) as string[];
  const jobs: number[] = [];
  const project: number[] = [];
  let sentences = 0;
  for (let pair = 0; pair < options.pairs; pair++) {
    jobs.push(await withGateway((gateway) => renderAsJobs(gateway, texts)));
    project.push(
      await withGateway(async (gateway) => {
        const { ms } = await renderProject(gateway, markdown);
        sentences = (await cacheStats(gateway)).synthesized;
        return ms;
      }),
    );
    console.log(`  pair ${pair + 1}: plain jobs ${seconds(jobs.at(-1)!).toFixed(1)} s, project ${seconds(project.at(-1)!).toFixed(1)} s`);
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
    const started = performance.now();
    const render = await ok<{ queued: unknown[] }>(await gateway.post(`/api/v1/tts/projects/${project.project_id}/render`, {}), 'render');
    const fixed = await rendered(gateway, project.project_id);
    const fixMs = performance.now() - started;
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
      chaptersQueued: render.queued.length,
      stats,
      audioSeconds,
    };
  });
}
