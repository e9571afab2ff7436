import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, waitForJob, type TestGateway } from '../testing/gateway';
import { prose } from '../testing/prose';

interface JobView {
  job_id: string;
  title: string;
  status: string;
  audio?: { duration_s: number };
}
interface Page {
  jobs: JobView[];
  next_cursor?: string;
}

let gateway: TestGateway;
const ids: Record<string, string> = {};

async function queue(text: string): Promise<string> {
  const response = await gateway.post('/api/v1/tts/synthesize', { text, mode: 'job' });
  expect(response.status).toBe(202);
  return ((await response.json()) as { job_id: string }).job_id;
}

const list = async (query: string): Promise<Page> => {
  const response = await gateway.api(`/api/v1/tts/jobs?${query}`);
  expect(response.status, query).toBe(200);
  return (await response.json()) as Page;
};

/** Every job of a query, page by page with `limit` per page. */
async function allPages(query: string, limit: number): Promise<JobView[]> {
  const jobs: JobView[] = [];
  let cursor: string | undefined;
  do {
    const page = await list(`${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    jobs.push(...page.jobs);
    cursor = page.next_cursor;
  } while (cursor);
  return jobs;
}

beforeAll(async () => {
  gateway = await startTestGateway();
  // short, long, middling; a title given to one; one job cancelled (no audio)
  ids.short = await queue('Zebra crossing. A short one.');
  ids.long = await queue(`${prose(1400)} The word lighthouse is only said here, in the last chunk.`);
  ids.middle = await queue('apple orchards in the rain. 100% of the trees, under_scored.');
  for (const id of Object.values(ids)) await waitForJob(gateway, id);
  const renamed = await gateway.api(`/api/v1/tts/jobs/${ids.middle}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Chapter 7 (the orchard)' }),
  });
  expect(renamed.status).toBe(200);
  ids.cancelled = await queue(prose(30_000));
  await gateway.api(`/api/v1/tts/jobs/${ids.cancelled}`, { method: 'DELETE' });
});
afterAll(() => gateway.stop());

const order = (jobs: JobView[]) => jobs.map((j) => Object.keys(ids).find((k) => ids[k] === j.job_id));

describe('sorting the job list', () => {
  it('sorts by creation (newest first by default), title (A to Z, any case) and duration (longest first, no audio last)', async () => {
    expect(order((await list('')).jobs)).toEqual(['cancelled', 'middle', 'long', 'short']);
    expect(order((await list('order=asc')).jobs)).toEqual(['short', 'long', 'middle', 'cancelled']);
    // "Chapter 7…" < "Nobody…"/"The river…" (long and cancelled start with prose) < "Zebra…"
    const byTitle = (await list('sort=title')).jobs;
    expect(byTitle.map((j) => j.title.toLowerCase())).toEqual(byTitle.map((j) => j.title.toLowerCase()).sort());
    expect(order(byTitle)[0]).toBe('middle');
    expect(order(byTitle).at(-1)).toBe('short');
    expect(order((await list('sort=title&order=desc')).jobs)).toEqual(order(byTitle).reverse());
    const byDuration = (await list('sort=duration')).jobs;
    expect(order(byDuration)).toEqual(['long', 'middle', 'short', 'cancelled']);
    expect(order((await list('sort=duration&order=asc')).jobs)).toEqual(['short', 'middle', 'long', 'cancelled']);
    const durations = byDuration.slice(0, 3).map((j) => j.audio!.duration_s);
    expect(durations).toEqual([...durations].sort((a, b) => b - a));
  });

  it('pages through every order with cursors, each job once', async () => {
    for (const query of ['sort=created', 'sort=title', 'sort=title&order=desc', 'sort=duration', 'sort=duration&order=asc']) {
      const whole = order((await list(`${query}&limit=200`)).jobs);
      expect(order(await allPages(query, 1)), query).toEqual(whole);
      expect(order(await allPages(query, 3)), query).toEqual(whole);
    }
  });

  it('refuses a cursor of another order, and unknown sorts', async () => {
    const { next_cursor } = await list('sort=title&limit=1');
    const answer = await gateway.api(`/api/v1/tts/jobs?sort=duration&cursor=${next_cursor}`);
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toMatch(/another order/);
    expect((await gateway.api('/api/v1/tts/jobs?sort=size')).status).toBe(400);
    expect((await gateway.api('/api/v1/tts/jobs?order=up')).status).toBe(400);
  });
});

describe('searching the job list', () => {
  it('finds words anywhere in the text, in any case, and in given titles', async () => {
    expect(order((await list('q=LIGHTHOUSE')).jobs)).toEqual(['long']);
    expect(order((await list('q=zebra')).jobs)).toEqual(['short']);
    expect(order((await list(`q=${encodeURIComponent('the   orchard')}`)).jobs)).toEqual(['middle']);
    expect(order((await list('q=orchards%20in%20the')).jobs)).toEqual(['middle']);
    expect(order((await list('q=no%20such%20words')).jobs)).toEqual([]);
    // a blank search is no search
    expect((await list('q=%20%20')).jobs).toHaveLength(4);
  });

  it('takes % and _ literally, combines with sorting and paging, and bounds the search', async () => {
    expect(order((await list('q=100%25')).jobs)).toEqual(['middle']);
    // as a wildcard, _ would match "in the"
    expect(order((await list('q=n_t')).jobs)).toEqual([]);
    expect(order((await list('q=under_scored')).jobs)).toEqual(['middle']);
    const river = (await list('q=river&sort=duration')).jobs;
    expect(order(river)).toEqual(['long', 'cancelled']);
    expect(order(await allPages('q=river&sort=duration', 1))).toEqual(['long', 'cancelled']);
    expect((await gateway.api(`/api/v1/tts/jobs?q=${'a'.repeat(201)}`)).status).toBe(400);
    expect((await gateway.api(`/api/v1/tts/jobs?q=${'a'.repeat(200)}`)).status).toBe(200);
  });
});
