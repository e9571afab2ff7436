import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobEvent } from '../contract';
import { startJobHarness, type JobHarness } from '../testing/job-harness';
import { allJobsFeed, oneJobFeed, REPLAY_PAGE } from './job-events';

// The feeds event streams carry, on the job runner with the fake engine: no HTTP.

let h: JobHarness;
beforeEach(async () => {
  h = await startJobHarness();
});
afterEach(() => h.close());

const summary = (events: JobEvent[]) => events.map((e) => [e.type, e.job.job_id, e.job.revision] as const);

describe('the feed of every job', () => {
  it('replays each job changed after Last-Event-ID once, as it stands, in the order of their changes', async () => {
    const first = await h.enqueue('The first job.');
    await h.ended(first.id);
    const since = h.store.revision();
    const second = await h.enqueue('The second job.');
    await h.ended(second.id);
    h.runner.rename(first.id, 'Renamed after');

    const replay = [...allJobsFeed(h.store, h.runner, since).backlog].flat();
    expect(replay.map((e) => [e.type, e.job.job_id])).toEqual([
      ['done', second.id],
      ['done', first.id],
    ]);
    expect(replay[1]!.job.title).toBe('Renamed after');
    expect(replay.map((e) => e.job.revision)).toEqual([h.store.get(second.id)!.revision, h.store.revision()]);
    // nothing after the latest change; without an id, no backlog at all
    expect([...allJobsFeed(h.store, h.runner, h.store.revision()).backlog]).toEqual([]);
    expect([...allJobsFeed(h.store, h.runner).backlog]).toEqual([]);
  });

  it('replays everything for an id of another history (higher than any change here)', async () => {
    const job = await h.enqueue('A job.');
    await h.ended(job.id);
    const replay = [...allJobsFeed(h.store, h.runner, h.store.revision() + 1000).backlog].flat();
    expect(summary(replay)).toEqual([['done', job.id, h.store.get(job.id)!.revision]]);
  });

  it('reads a long replay a page at a time, and a change made while a page is out comes in a later page', async () => {
    await h.close();
    h = await startJobHarness({ maxQueuedJobs: REPLAY_PAGE * 3 });
    h.runner.pause();
    const ids: string[] = [];
    for (let i = 0; i < REPLAY_PAGE * 2 + 10; i++) ids.push((await h.enqueue(`Job number ${i}.`)).id);
    const pages = allJobsFeed(h.store, h.runner, 0).backlog[Symbol.iterator]();
    const firstPage = pages.next().value!;
    expect(firstPage).toHaveLength(REPLAY_PAGE);
    // the first job, already sent, is renamed while the client reads the first page
    h.runner.rename(ids[0]!, 'Renamed during the replay');
    const rest: JobEvent[] = [];
    for (let page = pages.next(); !page.done; page = pages.next()) rest.push(...page.value);
    expect(rest).toHaveLength(REPLAY_PAGE + 10 + 1);
    expect(rest.at(-1)!.job).toMatchObject({ job_id: ids[0], title: 'Renamed during the replay' });
    const revisions = [...firstPage, ...rest].map((e) => e.job.revision);
    expect(revisions.every((revision, i) => i === 0 || revision > revisions[i - 1]!)).toBe(true);
  });

  it('carries added, deleted and updated events, each with a higher revision', async () => {
    const events: JobEvent[] = [];
    const unsubscribe = allJobsFeed(h.store, h.runner).subscribe((event) => events.push(event));
    const job = await h.enqueue('Added, then deleted.');
    await h.ended(job.id);
    h.store.markAudioMissing(job.id, 'Removed by hand.');
    h.runner.changed(job.id);
    await h.runner.delete(job.id);
    unsubscribe();
    expect(events.map((e) => e.type)).toEqual(['added', 'progress', 'done', 'updated', 'deleted']);
    expect(events[0]!.job).toMatchObject({ status: 'running', progress: { done: 0, total: 1 } });
    expect(events.at(-1)!.job).toMatchObject({ job_id: job.id, status: 'done', revision: h.store.revision() });
    const revisions = events.map((e) => e.job.revision);
    expect(revisions.every((revision, i) => i === 0 || revision > revisions[i - 1]!)).toBe(true);
  });
});

describe("one job's feed", () => {
  it('starts where the job stands, sends it again if it changed meanwhile, and ends with done or a deletion', async () => {
    h.runner.pause();
    const job = await h.enqueue('One job.');
    const feed = oneJobFeed(h.store, h.runner, job.id);
    const pages = feed.backlog[Symbol.iterator]();
    expect(summary(pages.next().value!)).toEqual([['progress', job.id, job.revision]]);
    h.runner.rename(job.id, 'Renamed while its first event was out');
    expect(pages.next().value![0]!.job.title).toBe('Renamed while its first event was out');
    expect(pages.next().done).toBe(true);
    const running = { type: 'progress', job: { status: 'running' } } as JobEvent;
    const events: JobEvent[] = [running, { ...running, type: 'deleted' }, { ...running, job: { ...running.job, status: 'done' } }];
    expect(events.map((event) => feed.isLast(event))).toEqual([false, true, true]);
  });
});
