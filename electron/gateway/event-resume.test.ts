/** GET /events over HTTP: ids, Last-Event-ID, and the list's revision that a client resumes from. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, JobList } from '../contract';
import { readEvents, type ServerEvent } from '../testing/events';
import { startTestGateway, waitForJob, type TestGateway } from '../testing/gateway';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.stop());

async function queue(text: string): Promise<string> {
  const response = await gateway.post('/api/v1/tts/synthesize', { text, mode: 'job' });
  expect(response.status).toBe(202);
  return ((await response.json()) as { job_id: string }).job_id;
}

async function finished(text: string): Promise<string> {
  const id = await queue(text);
  expect((await waitForJob(gateway, id)).status).toBe('done');
  return id;
}

const list = async () => (await (await gateway.api('/api/v1/tts/jobs?limit=200')).json()) as JobList;

/** Opens /events (resuming after `lastEventId` if given) and reads events until `enough` says so. */
async function follow(lastEventId: string | undefined, enough: (events: ServerEvent[]) => boolean, whileOpen?: () => Promise<unknown>) {
  const controller = new AbortController();
  const response = await gateway.api('/api/v1/tts/events', {
    signal: controller.signal,
    headers: lastEventId === undefined ? {} : { 'last-event-id': lastEventId },
  });
  expect(response.status).toBe(200);
  const events: ServerEvent[] = [];
  const reading = (async () => {
    for await (const event of readEvents(response)) {
      events.push(event);
      if (enough(events)) break;
    }
  })();
  await whileOpen?.();
  await reading;
  controller.abort();
  return events.map(({ event, data, id }) => ({ event, id, job: data as Job }));
}

describe('GET /events', () => {
  it("gives every event the job's revision as its id, a new job's first event being added", async () => {
    let id = '';
    const events = await follow(
      undefined,
      (seen) => seen.some((e) => e.event === 'done'),
      async () => (id = await queue('A job followed from its admission.')),
    );
    expect(events.map((e) => e.event)).toEqual(['added', 'progress', 'done']);
    expect(events.every((e) => e.job.job_id === id && e.id === String(e.job.revision))).toBe(true);
    const ids = events.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('resumes after Last-Event-ID: each job changed since, once, as it stands, then live events', async () => {
    const renamedLater = await finished('A job renamed while nobody listened.');
    const { revision } = await list();
    const madeLater = await finished('A job made while nobody listened.');
    expect(
      (
        await gateway.api(`/api/v1/tts/jobs/${renamedLater}`, {
          method: 'PATCH',
          body: JSON.stringify({ title: 'Renamed' }),
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(200);

    let live = '';
    const events = await follow(
      String(revision),
      (seen) => seen.length >= 3,
      async () => (live = await queue('A job made once the stream was open.')),
    );
    expect(events.map((e) => [e.event, e.job.job_id])).toEqual([
      ['done', madeLater],
      ['done', renamedLater],
      ['added', live],
    ]);
    expect(events[1]!.job.title).toBe('Renamed');
    expect(events.every((e) => Number(e.id) > revision)).toBe(true);
    await waitForJob(gateway, live);
  });

  it('sends every job first for Last-Event-ID 0, or an id from another history; a deletion is an event', async () => {
    const jobs = (await list()).jobs;
    const everything = (seen: ServerEvent[]) => seen.length >= jobs.length;
    for (const lastEventId of ['0', String((await list()).revision + 1000)]) {
      const events = await follow(lastEventId, everything);
      expect(events.map((e) => e.job.job_id).sort()).toEqual(jobs.map((j) => j.job_id).sort());
    }

    const doomed = jobs[0]!.job_id;
    const deleted = await follow(
      undefined,
      (seen) => seen.length >= 1,
      () => gateway.api(`/api/v1/tts/jobs/${doomed}`, { method: 'DELETE' }),
    );
    expect(deleted.map((e) => [e.event, e.job.job_id])).toEqual([['deleted', doomed]]);
    expect(Number(deleted[0]!.id)).toBe((await list()).revision);
  });

  it('answers 400 to a Last-Event-ID that no stream gave', async () => {
    for (const lastEventId of ['abc', '-1', '1.5', '9'.repeat(16)]) {
      const response = await gateway.api('/api/v1/tts/events', { headers: { 'last-event-id': lastEventId } });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: 'invalid_request' } });
    }
  });
});
