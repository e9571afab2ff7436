/**
 * The lexicon and SSML change what is said, never what is shown (issue 34, point 2): on a real
 * gateway with the embedded eSpeak NG and real lexicon entries (an alias, eSpeak phonemes, a
 * phrase holding an abbreviation), every surface people read carries the author's text: a job's
 * read-along timings, its VTT and SRT captions, an audiobook's chapter titles (M4B and MP3
 * metadata), a ZIP's file names and per-chapter captions, an inline answer's timings, an SSML
 * job's timings, an edited sentence and a project chapter's read-along. And sentences are not cut
 * after "Dr.", "Mr.", "St." or initials.
 */
import { unzipSync } from 'fflate';
import { parseBuffer } from 'music-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlineTimingsOf, type Export, type JobTimings, type LexiconEntryInput, type Project } from '../contract';
import { expectSpeech } from '../testing/audio';
import { startTestGateway, waitForExport, waitForJob, type TestGateway } from '../testing/gateway';

const ENTRIES: LexiconEntryInput[] = [
  { grapheme: 'Iseult', alias: 'Ee zolda', language: 'en' },
  { grapheme: 'Branoc', phoneme: "br'an@x", alphabet: 'x-espeak', language: 'en' },
  // long enough to be heard: the job with the lexicon is measurably longer than without
  { grapheme: 'Dr. Kovač', alias: 'Doctor Kovatch of the northern lighthouse', language: 'en' },
];
/** What must never reach a person: the aliases and eSpeak's phoneme brackets. */
const SPOKEN_ONLY = /Ee zolda|Kovatch|\[\[|br'an@x/;

const BOOK = [
  '# Chapter Three: Iseult Counts the Tide',
  'Iseult counted the tide with Dr. Kovač at dawn. Branoc Vey walked on the shore.',
  'Chapter 4: Branoc and Iseult',
  "Mr. Hale met Iseult at St. Brendan's well. They spoke of J. R. R. Tolkien until noon.",
].join('\n\n');
const SENTENCES = [
  '# Chapter Three: Iseult Counts the Tide',
  'Iseult counted the tide with Dr. Kovač at dawn.',
  'Branoc Vey walked on the shore.',
  'Chapter 4: Branoc and Iseult',
  "Mr. Hale met Iseult at St. Brendan's well.",
  'They spoke of J. R. R. Tolkien until noon.',
];
const CHAPTERS = ['Chapter Three: Iseult Counts the Tide', 'Chapter 4: Branoc and Iseult'];

let gateway: TestGateway;
let book: { id: string; timings: JobTimings };

async function finishedJob(body: object): Promise<{ id: string; timings: JobTimings }> {
  const response = await gateway.post('/api/v1/tts/synthesize', { mode: 'job', ...body });
  expect(response.status, await response.clone().text()).toBe(202);
  const { job_id: id } = (await response.json()) as { job_id: string };
  expect((await waitForJob(gateway, id)).status).toBe('done');
  return { id, timings: (await (await gateway.api(`/api/v1/tts/jobs/${id}/timings`)).json()) as JobTimings };
}

async function exported(body: Record<string, unknown>): Promise<{ view: Export; bytes: Uint8Array }> {
  const response = await gateway.post('/api/v1/tts/exports', body);
  expect(response.status, await response.clone().text()).toBe(202);
  const { poll } = (await response.json()) as { poll: string };
  const view = await waitForExport(gateway, poll);
  expect(view.status, JSON.stringify(view.error)).toBe('done');
  const file = await gateway.api(view.file!.url);
  expect(file.status).toBe(200);
  return { view, bytes: new Uint8Array(await file.arrayBuffer()) };
}

/** The lines of captions that carry words (not the header, cue numbers or times). */
const captionText = (captions: string) =>
  captions
    .split('\n')
    .filter((line) => line && line !== 'WEBVTT' && !/^\d+$/.test(line) && !line.includes('-->'))
    .join(' ');

beforeAll(async () => {
  gateway = await startTestGateway();
  const put = await gateway.api('/api/v1/tts/lexicon', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ entries: ENTRIES }),
  });
  expect(put.status).toBe(200);
  book = await finishedJob({ text: BOOK });
}, 180_000);
afterAll(() => gateway.stop());

describe('a job read along, as written', () => {
  it('gives the author’s sentences in its timings, cut where the author’s sentences end', () => {
    expect(book.timings.sentences.map((s) => s.text)).toEqual(SENTENCES);
    // each text offset points at that very sentence of the text sent
    for (const sentence of book.timings.sentences) {
      expect([...BOOK].slice(sentence.text_start, sentence.text_end).join('')).toBe(sentence.text);
    }
  });

  it('was spoken with the lexicon: the same text without it is shorter', async () => {
    const withLexicon = book.timings.duration_s;
    await gateway.api('/api/v1/tts/lexicon', { method: 'DELETE' });
    try {
      const plain = await finishedJob({ text: BOOK });
      expect(plain.timings.sentences.map((s) => s.text)).toEqual(SENTENCES);
      expect(withLexicon).toBeGreaterThan(plain.timings.duration_s + 1);
    } finally {
      await gateway.api('/api/v1/tts/lexicon', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ entries: ENTRIES }),
      });
    }
  }, 120_000);

  it('captions it as written, in VTT and SRT', async () => {
    for (const format of ['vtt', 'srt']) {
      const response = await gateway.api(`/api/v1/tts/jobs/${book.id}/subtitles?format=${format}`);
      expect(response.status).toBe(200);
      const words = captionText(await response.text());
      expect(words).not.toMatch(SPOKEN_ONLY);
      expect(words).toContain('Iseult counted the tide with Dr. Kovač at dawn.');
      expect(words).toContain('Branoc Vey walked on the shore.');
    }
  });
});

describe('an audiobook of it, as written', () => {
  it('titles M4B and MP3 chapters with the author’s headings', async () => {
    for (const format of ['m4b', 'mp3'] as const) {
      const { view, bytes } = await exported({ job_ids: [book.id], format });
      expect(view.chapters.map((c) => c.title)).toEqual(CHAPTERS);
      const { format: read, common } = await parseBuffer(
        bytes,
        { mimeType: format === 'm4b' ? 'audio/mp4' : 'audio/mpeg' },
        { includeChapters: true },
      );
      expect(read.chapters?.map((c) => c.title)).toEqual(CHAPTERS);
      expect(common.title).toBe(CHAPTERS[0]); // no title given: the first chapter's
    }
  }, 120_000);

  it('names a ZIP’s files and writes its per-chapter captions from the author’s text', async () => {
    const { bytes } = await exported({ job_ids: [book.id], format: 'zip' });
    const files = unzipSync(bytes);
    const names = Object.keys(files);
    expect(names.filter((n) => n.endsWith('.mp3'))).toHaveLength(2);
    for (const name of names) expect(name).not.toMatch(SPOKEN_ONLY);
    expect(names.some((n) => n.includes('Iseult Counts the Tide'))).toBe(true);
    const captions = names.filter((n) => n.endsWith('.vtt') || n.endsWith('.srt'));
    expect(captions).toHaveLength(4);
    const words = captions.map((name) => captionText(new TextDecoder().decode(files[name]))).join(' ');
    expect(words).not.toMatch(SPOKEN_ONLY);
    expect(words).toContain("Mr. Hale met Iseult at St. Brendan's well.");
  }, 120_000);
});

describe('other ways in, as written', () => {
  it('an inline answer’s sentences', async () => {
    const text = 'Iseult met Dr. Kovač. Branoc Vey waved.';
    const response = await gateway.post('/api/v1/tts/synthesize', { text });
    expect(response.status).toBe(200);
    const audio = Buffer.from(await response.arrayBuffer());
    const timings = inlineTimingsOf(response.headers.get('x-orator-timings'), text, expectSpeech(audio));
    expect(timings?.sentences.map((s) => s.text)).toEqual(['Iseult met Dr. Kovač.', 'Branoc Vey waved.']);
  });

  it('an SSML job’s sentences: an element’s content, never its alias, say-as words or phonemes', async () => {
    const text =
      '<speak><s>Ask <sub alias="Doctor">Dr.</sub> Iseult.</s><s>Pay <say-as interpret-as="cardinal">12,345</say-as> now.</s><s>Hi <phoneme alphabet="x-espeak" ph="v\'eI">Vey</phoneme>.</s></speak>';
    const { id, timings } = await finishedJob({ text, text_type: 'ssml' });
    expect(timings.sentences.map((s) => s.text)).toEqual(['Ask Dr. Iseult.', 'Pay 12,345 now.', 'Hi Vey.']);
    const job = (await (await gateway.api(`/api/v1/tts/jobs/${id}`)).json()) as { title: string };
    expect(job.title).toBe('Ask Dr. Iseult. Pay 12,345 now. Hi Vey.');
  }, 60_000);

  it('a sentence edited and re-rendered', async () => {
    const { id } = await finishedJob({ text: BOOK });
    const edited = 'Branoc Vey and Iseult walked on the shore.';
    const response = await gateway.api(`/api/v1/tts/jobs/${id}/sentences/2`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: edited }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const timings = (await (await gateway.api(`/api/v1/tts/jobs/${id}/timings`)).json()) as JobTimings;
    expect(timings.sentences.map((s) => s.text)).toEqual(SENTENCES.map((s, i) => (i === 2 ? edited : s)));
  }, 120_000);

  it('a project chapter’s read-along', async () => {
    const created = await gateway.post('/api/v1/tts/projects', { manuscript: { name: 'tide.md', text: BOOK.replace('# ', '## ') } });
    expect(created.status, await created.clone().text()).toBe(201);
    const project = (await created.json()) as Project;
    expect(project.chapters.map((c) => c.title)).toEqual(CHAPTERS);
    const render = await gateway.post(`/api/v1/tts/projects/${project.project_id}/render`, {});
    expect(render.status, await render.clone().text()).toBe(200);
    const { queued } = (await render.json()) as { queued: { job_id: string }[] };
    const id = queued[0]!.job_id;
    expect((await waitForJob(gateway, id)).status).toBe('done');
    const timings = (await (await gateway.api(`/api/v1/tts/jobs/${id}/timings`)).json()) as JobTimings;
    expect(timings.sentences[0]!.text).toBe('Chapter Three: Iseult Counts the Tide');
    expect(timings.sentences.map((s) => s.text).join(' ')).not.toMatch(SPOKEN_ONLY);
  }, 120_000);
});
