import { RENDER_PLAN_LISTED, type RenderPlan, type RenderPlanChapter } from '../contract';
import type { ResolvedVoice } from '../engines/registry';
import { alignChunks } from '../jobs/base-audio/align';
import { chunkKey, reusable } from '../jobs/base-audio/reuse';
import type { RenderCache } from '../jobs/render-cache/cache';
import { renderCacheKey } from '../jobs/render-cache/key';
import type { JobRow } from '../jobs/rows';
import type { JobStore } from '../jobs/store';
import type { Rewrite } from '../lexicon/rewrite';
import type { Grapheme, SentenceIndex } from '../projects/sentence-index';
import type { ChapterRow, ProjectRow } from '../projects/store';
import { isContinuable } from './project-chapters';

export interface PlanDeps {
  jobStore: JobStore;
  cache?: RenderCache | undefined;
  /** Chunks synthesized at once: the time is the engine's per thread, divided by them. */
  concurrency: number;
}

/** A chapter a render would queue, with what the plan needs of it. */
export interface PlannedChapter {
  chapter: ChapterRow;
  job: JobRow | undefined;
  /** Its sentences as a render cuts them (SentenceIndex). */
  index: SentenceIndex;
}

/** The project's voice as the plan keys sentences with it, and the lexicon's rewrite of it. */
export interface PlanVoice {
  resolved: ResolvedVoice;
  spoken: Rewrite;
  /** Every entry of the lexicon: the sentences that hold none of them are said as written. */
  entries: readonly Grapheme[];
}

/**
 * What a render of the project would synthesize: for each chapter it would queue, the sentences
 * found neither in the chapter's last render (aligned as jobs/base-audio/ aligns them; a
 * cancelled chapter's saved chunks) nor in the render cache, each key once over the book. Only
 * the sentences the sentence index says may hold a lexicon entry are rewritten; the others are
 * said as written.
 */
export function planRender(deps: PlanDeps, project: ProjectRow, voice: PlanVoice, chapters: readonly PlannedChapter[]): RenderPlan {
  const { resolved } = voice;
  const adapter = resolved.adapter;
  const settings = { voice: resolved.localName, rate: project.rate, pitch: project.pitch, volume: project.volume };
  const counted = new Set<string>();
  const planned: RenderPlanChapter[] = [];
  for (const { chapter, job, index } of chapters) {
    const spoken = spokenSentences(index, voice);
    const said = alreadySaid(deps.jobStore, job, spoken, { ...settings, voice: resolved.voice.id, local_voice: resolved.localName });
    const texts: string[] = [];
    let characters = 0;
    spoken.forEach((text, n) => {
      if (said[n]) return;
      const key = renderCacheKey(adapter, { ...settings, text });
      if (counted.has(key) || deps.cache?.holds(key)) return;
      counted.add(key);
      texts.push(index.sentences[n]!);
      characters += text.length;
    });
    planned.push({ index: chapter.idx, sentences: texts.length, characters, texts: texts.slice(0, RENDER_PLAN_LISTED) });
  }
  const sentences = planned.reduce((sum, c) => sum + c.sentences, 0);
  const characters = planned.reduce((sum, c) => sum + c.characters, 0);
  const seconds = estimateSeconds(deps, adapter.id, characters);
  return { chapters: planned, sentences, characters, seconds, summary: summary(planned.length, sentences, seconds) };
}

/** About how long an engine takes to speak `characters`, at the pace it spoke renders' sentences; null before it spoke any. */
export function estimateSeconds(deps: Omit<PlanDeps, 'jobStore'>, engine: string, characters: number): number | null {
  const pace = deps.cache?.pace.of(engine) ?? null;
  return pace === null ? null : Math.round((10 * (pace * characters)) / deps.concurrency) / 10;
}

/** Each sentence as spoken: rewritten where the index says an entry may apply, else as written. */
function spokenSentences(index: SentenceIndex, voice: PlanVoice): string[] {
  const touched = new Set(voice.entries.flatMap((entry) => index.holding(entry)));
  return index.sentences.map((sentence, n) => (touched.has(n) ? voice.spoken(sentence).text : sentence));
}

/**
 * Which sentences need no engine because the chapter's job has them: a cancelled chapter's saved
 * chunks (the render continues it), or the done render's chunks said alike (the render reuses them).
 */
function alreadySaid(
  store: JobStore,
  job: JobRow | undefined,
  spoken: string[],
  voice: Pick<JobRow, 'voice' | 'local_voice' | 'rate' | 'pitch' | 'volume'>,
): boolean[] {
  if (job && isContinuable(job)) {
    const done = new Set(store.timings.layout(job.id).flatMap((chunk) => (chunk.done ? [chunk.text] : [])));
    return spoken.map((text) => done.has(text));
  }
  if (!reusable(job, voice)) return spoken.map(() => false);
  return alignChunks(store.timings.layout(job.id).map(chunkKey), spoken).map((matched) => matched !== null);
}

function summary(chapters: number, sentences: number, seconds: number | null): string {
  const plural = (n: number, word: string) => `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;
  if (chapters === 0) return 'Nothing to render.';
  const spoken = `${plural(sentences, 'sentence')} in ${plural(chapters, 'chapter')}`;
  if (sentences === 0) return `${spoken}: joined again from audio already made.`;
  return seconds === null ? spoken : `${spoken}, about ${duration(seconds)}`;
}

/** A duration as a plan says it: "40 s", "12 min", "1.5 h". */
export function duration(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}
