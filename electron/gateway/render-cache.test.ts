/**
 * The render cache over HTTP on a real gateway with the embedded eSpeak NG: a project's chapters
 * are rendered sentence by sentence, and a render synthesizes only the sentences the cache does
 * not hold. Counted twice: by the gateway's own count (`GET /render-cache`, `synthesized`) and by
 * the texts the engine adapter was asked to speak.
 */
import { describe, expect, it } from 'vitest';
import {
  type JobTimings,
  type Project,
  type RenderCacheStats,
  type RenderPlan,
  type RenderResult,
  type SentenceTiming,
  type SettingsView,
} from '../contract';
import { decodeWav } from '../audio/wav';
import { expectSpeech } from '../testing/audio';
import { bookMarkdown, distinctSentences } from '../testing/book';
import { recordSpoken } from '../testing/engine-calls';
import { putSetting, useTestGateways, waitForJob, type TestGateway } from '../testing/gateway';

const PROJECTS = '/api/v1/tts/projects';
const CACHE = '/api/v1/tts/render-cache';
const VOICE = 'espeak-ng:en-us';

/** Fifteen sentences (each chapter's title is spoken as its first), the name in three of them. */
const SEA_BOOK = `## The Harbour
Branoc rowed out at dawn. The gulls followed his boat. The water was grey and calm. He counted the nets twice.

## The Storm
The wind rose in the west. Rain struck the deck. Branoc tied the sail down. The boat leaned hard.

## The Return
The storm passed by noon. The shore came into view. Branoc's wife waited on the quay. They walked home together.
`;

const gateways = useTestGateways();
let gateway: TestGateway;

const send = (method: string, route: string, body?: unknown) =>
  gateway.api(route, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });

async function create(text: string): Promise<Project> {
  const response = await send('POST', PROJECTS, { voice: VOICE, manuscript: { name: 'book.md', text } });
  expect(response.status).toBe(201);
  return (await response.json()) as Project;
}

async function queueRender(project: Project): Promise<RenderResult> {
  const response = await send('POST', `${PROJECTS}/${project.project_id}/render`);
  expect(response.status).toBe(200);
  return (await response.json()) as RenderResult;
}

async function finish(result: RenderResult): Promise<void> {
  for (const { job_id } of result.queued) expect((await waitForJob(gateway, job_id)).status).toBe('done');
}

async function render(project: Project): Promise<RenderResult> {
  const result = await queueRender(project);
  await finish(result);
  return result;
}

const stats = async () => (await (await gateway.api(CACHE)).json()) as RenderCacheStats;
const plan = async (project: Project) => {
  const response = await gateway.api(`${PROJECTS}/${project.project_id}/render-plan`);
  expect(response.status).toBe(200);
  return (await response.json()) as RenderPlan;
};

/** The samples of each chapter's audio, in reading order. */
async function chapterAudio(project: Project): Promise<Int16Array[]> {
  const current = (await (await gateway.api(`${PROJECTS}/${project.project_id}`)).json()) as Project;
  return Promise.all(
    current.chapters.map(async (chapter) => {
      const wav = Buffer.from(await (await gateway.api(`/api/v1/tts/jobs/${chapter.job_id}/audio`)).arrayBuffer());
      expectSpeech(wav, { minSeconds: 2, maxSeconds: 30 });
      return decodeWav(wav).samples;
    }),
  );
}

const setLexicon = (entries: unknown[]) => send('PUT', '/api/v1/tts/lexicon', { entries });

const MiB = 1024 * 1024;

const setCacheMb = (value: unknown) => putSetting(gateway, 'render_cache_mb', value);

describe('the render cache', () => {
  it('re-renders after a lexicon fix of a name in three sentences by synthesizing exactly those three', async () => {
    gateway = await gateways.start();
    const spoken = recordSpoken(gateway, VOICE);
    const project = await create(SEA_BOOK);
    // nothing synthesized yet since the start: no time to say
    expect(await plan(project)).toMatchObject({ sentences: 15, seconds: null, summary: '15 sentences in 3 chapters' });
    const first = await render(project);
    expect(first.queued).toHaveLength(3);
    expect(await plan(project)).toEqual({ chapters: [], sentences: 0, characters: 0, seconds: 0, summary: 'Nothing to render.' });
    expect(await stats()).toMatchObject({ entries: 15, synthesized: 15, hits: 0 });
    expect(spoken.texts).toHaveLength(15);
    const before = await chapterAudio(project);

    expect((await setLexicon([{ grapheme: 'Branoc', alias: 'Bran nock the fisherman', language: 'en' }])).status).toBe(200);
    // what the render will cost, before it runs: the three sentences, at the pace the engine spoke the fifteen
    const before3 = await plan(project);
    expect(before3.chapters.map((c) => [c.index, c.sentences, c.texts])).toEqual([
      [0, 1, ['Branoc rowed out at dawn.']],
      [1, 1, ['Branoc tied the sail down.']],
      [2, 1, ["Branoc's wife waited on the quay."]],
    ]);
    expect(before3.sentences).toBe(3);
    expect(before3.seconds).toBeGreaterThan(0);
    expect(before3.summary).toMatch(/^3 sentences in 3 chapters, about \d+ s$/);
    spoken.clear();
    const fixed = await render(project);
    expect(fixed.queued.map((q) => q.index)).toEqual([0, 1, 2]);
    // the twelve sentences that did not change come from the chapters' earlier audio
    expect(await stats()).toMatchObject({ entries: 18, synthesized: 18, hits: 0 });
    expect(spoken.texts).toEqual([
      'Bran nock the fisherman rowed out at dawn.',
      'Bran nock the fisherman tied the sail down.',
      "Bran nock the fisherman's wife waited on the quay.",
    ]);
    const after = await chapterAudio(project);
    // the alias is longer than the name: each chapter longer by its changed sentence
    after.forEach((samples, i) => expect(samples.length).toBeGreaterThan(before[i]!.length));
    // chapter 1's title was not synthesized again: its samples are the first render's
    const title = (await timings(project, 0))[0]!;
    expect(title.text).toBe('The Harbour');
    const titleEnd = Math.round(title.end_s * RATE);
    expect(bytes(after[0]!.subarray(0, titleEnd)).equals(bytes(before[0]!.subarray(0, titleEnd)))).toBe(true);
  });

  it('takes what did not change from the chapters’ earlier audio, with the cache emptied', async () => {
    gateway = await gateways.start();
    const project = await create(SEA_BOOK);
    await render(project);
    const before = await chapterAudio(project);
    const beforeTimings = await Promise.all([0, 1, 2].map((i) => timings(project, i)));
    expect((await send('DELETE', CACHE)).status).toBe(200);
    const spoken = recordSpoken(gateway, VOICE);
    expect((await setLexicon([{ grapheme: 'Branoc', alias: 'Bran nock', language: 'en' }])).status).toBe(200);
    await render(project);
    expect(spoken.texts).toEqual(['Bran nock rowed out at dawn.', 'Bran nock tied the sail down.', "Bran nock's wife waited on the quay."]);
    expect(await stats()).toMatchObject({ entries: 3, synthesized: 18, hits: 0 });
    const after = await chapterAudio(project);
    for (const chapter of [0, 1, 2]) {
      const now = await timings(project, chapter);
      expect(now.map((s) => s.text)).toEqual(beforeTimings[chapter]!.map((s) => s.text));
      // every sentence but the name's is, sample for sample, where the new timings say
      for (const [n, sentence] of now.entries()) {
        const old = sentenceAudio(before[chapter]!, beforeTimings[chapter]![n]!);
        expect(holds(after[chapter]!, sentence, old)).toBe(!sentence.text.includes('Branoc'));
      }
    }
  });

  it('re-renders a manuscript edit by synthesizing the sentence it changed, the rest from the cache', async () => {
    gateway = await gateways.start();
    const project = await create(SEA_BOOK);
    await render(project);
    const spoken = recordSpoken(gateway, VOICE);
    const edited = SEA_BOOK.replace('Rain struck the deck.', 'Hail struck the deck.');
    expect((await send('PUT', `${PROJECTS}/${project.project_id}/manuscript`, { name: 'book.md', text: edited })).status).toBe(200);
    expect(await plan(project)).toMatchObject({ sentences: 1, chapters: [{ index: 1, sentences: 1, texts: ['Hail struck the deck.'] }] });
    const result = await render(project);
    expect(result.queued.map((q) => q.index)).toEqual([1]);
    expect(spoken.texts).toEqual(['Hail struck the deck.']);
    expect(await stats()).toMatchObject({ entries: 16, synthesized: 16, hits: 4 });
    const [, storm] = await chapterAudio(project);
    expect(storm!.length).toBeGreaterThan(2 * RATE);
  });

  it('synthesizes a sentence two chapters share once, and both chapters say it', async () => {
    gateway = await gateways.start();
    const spoken = recordSpoken(gateway, VOICE);
    const project = await create('## One\nThe bell rang twice. Mara opened the door.\n\n## Two\nThe bell rang twice. Nobody came.\n');
    expect((await plan(project)).chapters.map((c) => c.texts)).toEqual([
      ['One', 'The bell rang twice.', 'Mara opened the door.'],
      ['Two', 'Nobody came.'],
    ]);
    await render(project);
    expect(spoken.texts.filter((text) => text === 'The bell rang twice.')).toHaveLength(1);
    expect(await stats()).toMatchObject({ entries: 5, synthesized: 5, hits: 1 });
    const [one, two] = await chapterAudio(project);
    const [oneBell, twoBell] = [(await timings(project, 0))[1]!, (await timings(project, 1))[1]!];
    expect(oneBell.text).toBe('The bell rang twice.');
    expect(twoBell.text).toBe('The bell rang twice.');
    expect(holds(two!, twoBell, sentenceAudio(one!, oneBell))).toBe(true);
    expect(holds(two!, twoBell, sentenceAudio(one!, (await timings(project, 0))[2]!))).toBe(false);
  });

  it('synthesizes again what was evicted after a render was queued', async () => {
    gateway = await gateways.start();
    const rendered = await create(SEA_BOOK);
    await render(rendered);
    const original = await chapterAudio(rendered);

    const copy = await create(SEA_BOOK);
    gateway.pauseQueue();
    const queued = await queueRender(copy);
    const cleared = (await (await send('DELETE', CACHE)).json()) as RenderCacheStats;
    expect(cleared).toMatchObject({ entries: 0, bytes: 0, evicted: 15 });
    gateway.resumeQueue();
    await finish(queued);
    expect(await stats()).toMatchObject({ entries: 15, synthesized: 30, hits: 0 });
    // eSpeak NG's audio of a text differs a little from one synthesis to the next: spoken anew, not copied
    (await chapterAudio(copy)).forEach((samples, i) => {
      expect(bytes(samples).equals(bytes(original[i]!))).toBe(false);
      expect(Math.abs(samples.length - original[i]!.length)).toBeLessThan(0.02 * original[i]!.length);
    });
  });

  it('applies a smaller bound (render_cache_mb) when it is saved: the least recently used sentences go', async () => {
    gateway = await gateways.start();
    // some 400 words: a few MiB of sentences
    await render(await create(distinctSentences(bookMarkdown(400))));
    const full = await stats();
    expect(full.bytes).toBeGreaterThan(2 * MiB);

    const saved = await setCacheMb(1);
    expect(saved.status).toBe(200);
    expect(((await saved.json()) as SettingsView).restart_required).not.toContain('render_cache_mb');
    const bounded = await stats();
    expect(bounded).toMatchObject({ max_bytes: MiB, evicted: full.entries - bounded.entries });
    expect(bounded.bytes).toBeLessThanOrEqual(MiB);
    expect(bounded.entries).toBeGreaterThan(0);

    expect((await setCacheMb(0)).status).toBe(200);
    expect(await stats()).toMatchObject({ entries: 0, bytes: 0, max_bytes: 0 });
    // nothing is kept while the bound is 0: a render speaks every sentence and keeps none
    await render(await create(SEA_BOOK));
    expect(await stats()).toMatchObject({ entries: 0, synthesized: full.synthesized + 15 });
  });

  it('survives a restart of the gateway: a render after it synthesizes nothing', async () => {
    gateway = await gateways.start();
    const project = await create(SEA_BOOK);
    await render(project);
    const original = await chapterAudio(project);
    const held = await stats();
    expect(held.entries).toBe(15);
    expect(held.audio_seconds).toBeGreaterThan(10);
    const { dataDir } = gateway;
    await gateways.close(gateway);

    gateway = await gateways.start({ dataDir });
    const spoken = recordSpoken(gateway, VOICE);
    expect(await stats()).toMatchObject({ entries: 15, bytes: held.bytes, synthesized: 0, hits: 0 });
    // the chapters' audio deleted: the render makes it again, from the cache alone
    for (const chapter of ((await (await gateway.api(`${PROJECTS}/${project.project_id}`)).json()) as Project).chapters) {
      expect((await send('DELETE', `/api/v1/tts/jobs/${chapter.job_id}`)).status).toBe(204);
    }
    const again = await render(project);
    expect(again.queued).toHaveLength(3);
    expect(spoken.texts).toEqual([]);
    expect(await stats()).toMatchObject({ synthesized: 0, hits: 15 });
    // sample for sample the audio of the first render: eSpeak NG never says a text twice alike
    (await chapterAudio(project)).forEach((samples, i) => expect(bytes(samples).equals(bytes(original[i]!))).toBe(true));
  });
});

const bytes = (samples: Int16Array) => Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);

/** eSpeak NG's rate. */
const RATE = 22_050;
/** Timings are in milliseconds: a sentence's samples are looked for this far either side. */
const SLACK = Math.ceil(RATE / 1000) + 1;

async function timings(project: Project, chapter: number): Promise<SentenceTiming[]> {
  const current = (await (await gateway.api(`${PROJECTS}/${project.project_id}`)).json()) as Project;
  const answer = (await (await gateway.api(`/api/v1/tts/jobs/${current.chapters[chapter]!.job_id}/timings`)).json()) as JobTimings;
  return answer.sentences;
}

/** A sentence's samples, less the slack at either end. */
const sentenceAudio = (samples: Int16Array, sentence: SentenceTiming) =>
  samples.subarray(Math.round(sentence.start_s * RATE) + SLACK, Math.round(sentence.end_s * RATE) - SLACK);

/** Whether `part` is, sample for sample, in the audio where `sentence` is said. */
function holds(samples: Int16Array, sentence: SentenceTiming, part: Int16Array): boolean {
  const needle = bytes(part);
  const from = Math.max(0, Math.round(sentence.start_s * RATE) - SLACK);
  const region = samples.subarray(from, Math.round(sentence.end_s * RATE) + SLACK);
  const found = bytes(region).indexOf(needle);
  return found >= 0 && found % 2 === 0;
}
