import { ApiError, RENDER_PLAN_LISTED, type Job, type JobRerenderPlan } from '../contract';
import type { EngineRegistry, ResolvedVoice } from '../engines/registry';
import { sentenceRerender, type SentenceRerender } from '../jobs/base-audio/sentences';
import { fileExists } from '../jobs/files';
import type { RenderCache } from '../jobs/render-cache/cache';
import { renderCacheKey } from '../jobs/render-cache/key';
import type { JobRow } from '../jobs/rows';
import type { JobRunner } from '../jobs/runner';
import type { JobStore } from '../jobs/store';
import { hasWav, toJobView } from '../jobs/view';
import type { JobService } from './jobs';
import { duration, estimateSeconds } from './render-plan';
import { spokenBy, type Pronouncer } from './synthesis';

export interface JobRerenderDeps {
  jobs: JobService;
  store: JobStore;
  runner: JobRunner;
  registry: EngineRegistry;
  lexicon?: Pronouncer | undefined;
  /** The sentences kept across renders, which a plan counts as made. */
  cache?: RenderCache | undefined;
  /** Chunks synthesized at once (engine threads), for a plan's time. */
  concurrency: number;
}

/** A finished job and how it would be said again now. */
interface Prepared {
  row: JobRow;
  resolved: ResolvedVoice;
  rerender: SentenceRerender;
  plan: JobRerenderPlan;
}

/**
 * A finished job said again with the lexicon as it is now ("re-render with the lexicon"), as a
 * new job of one chunk per sentence: each sentence said as the job said it takes its audio from
 * the job's (jobs/base-audio/sentences.ts), the others go through the render cache, so that only
 * what the lexicon changed reaches an engine. The new job is a series of its own (the render
 * cache serves series); the old job stays, for the narrator to compare or delete. A job made from
 * SSML is refused: its markup is not kept, only what it said.
 */
export class JobRerenders {
  constructor(private readonly deps: JobRerenderDeps) {}

  async plan(id: string): Promise<JobRerenderPlan> {
    return (await this.prepare(id)).plan;
  }

  /** Queues the re-render; answers the new job, the sentences an engine will speak and those taken from the old audio. */
  rerender(id: string): Promise<{ job: Job; sentences: number; reused: number }> {
    // no sentence edit may splice the job's WAV between reading its timings and linking it
    return this.deps.jobs.whileEditing(id, () => this.queue(id));
  }

  private async queue(id: string): Promise<{ job: Job; sentences: number; reused: number }> {
    const { row, resolved, rerender, plan } = await this.prepare(id);
    const { title, custom_title: customTitle, characters, rate, pitch, volume } = row;
    const output = { format: row.format, bitrateKbps: row.bitrate_kbps ?? undefined, keepWav: row.keep_wav === 1 };
    const job = await this.deps.runner.enqueueChunks(
      resolved,
      rerender.chunks.map(({ written: _, ...chunk }) => chunk),
      {
        title,
        customTitle,
        characters,
        rate,
        pitch,
        volume,
        expiresAt: this.deps.jobs.expiryOfNewJob(),
        output,
        series: { id: `rerender:${row.id}`, idx: 0 },
      },
      { jobId: row.id, slices: rerender.slices },
    );
    return { job: toJobView(job), sentences: plan.sentences, reused: job.chunks_done };
  }

  private async prepare(id: string): Promise<Prepared> {
    const row = await this.deps.jobs.playableRow(id);
    const layout = this.deps.store.timings.layout(row.id);
    if (layout.some((chunk) => chunk.own !== null)) {
      throw new ApiError(
        'invalid_request',
        `Job ${id} was made from SSML, whose markup Orator does not keep: send the SSML again to hear it with the lexicon.`,
      );
    }
    const resolved = this.deps.registry.resolve({ voice: row.voice });
    // a job's WAV, when it keeps one, is where its sentences are taken from
    const wav = hasWav(row) && (await fileExists(this.deps.runner.files.audioFile(row.id, 'wav')));
    const rerender = sentenceRerender(layout, spokenBy(this.deps.lexicon, resolved), wav ? row.sample_rate : null);
    if (!rerender) {
      throw new ApiError('timings_unavailable', `Job ${id} was made by a version of Orator that did not keep sentence timings.`);
    }
    return { row, resolved, rerender, plan: this.planOf(row, resolved, rerender) };
  }

  /** The sentences not taken from the job's audio, and those of them neither the cache holds nor an earlier one repeats. */
  private planOf(row: JobRow, resolved: ResolvedVoice, rerender: SentenceRerender): JobRerenderPlan {
    const { cache } = this.deps;
    const counted = new Set<string>();
    const texts: JobRerenderPlan['texts'] = [];
    let characters = 0;
    rerender.chunks.forEach((chunk, index) => {
      if (rerender.slices[index]) return;
      if (texts.length < RENDER_PLAN_LISTED) texts.push({ index, text: chunk.written });
      const { local_voice: voice, rate, pitch, volume } = row;
      const key = renderCacheKey(resolved.adapter, { text: chunk.text, voice, rate, pitch, volume });
      if (counted.has(key) || cache?.holds(key)) return;
      counted.add(key);
      characters += chunk.text.length;
    });
    const changed = rerender.slices.filter((slice) => slice === null).length;
    const sentences = counted.size;
    const seconds = estimateSeconds(this.deps, resolved.adapter.id, characters);
    const speaking = { voice: row.voice, rate: row.rate, pitch: row.pitch, volume: row.volume };
    return { changed, sentences, characters, seconds, texts, summary: summary(changed, sentences, seconds), speaking };
  }
}

function summary(changed: number, sentences: number, seconds: number | null): string {
  const plural = (n: number) => `${n.toLocaleString('en')} sentence${n === 1 ? '' : 's'}`;
  if (changed === 0) return "Nothing changed: every sentence is taken from the job's audio.";
  if (sentences === 0) return `${plural(changed)} changed, all in the render cache.`;
  return seconds === null ? `${plural(sentences)} to synthesize` : `${plural(sentences)} to synthesize, about ${duration(seconds)}`;
}
