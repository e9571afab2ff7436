/**
 * The pronunciation lexicon over HTTP, on a real gateway with the embedded eSpeak NG: entries
 * change what is heard inline, in previews and in jobs; PLS and CSV go out and come back; bad
 * files and too many entries get their error.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LEXICON_LIMITS, type LexiconEntry, type LexiconEntryInput } from '../contract';
import { expectSpeech } from '../testing/audio';
import { bodyLimitFor } from './config';
import { startTestGateway, waitForJob, type TestGateway } from '../testing/gateway';

const LEXICON = '/api/v1/tts/lexicon';
/** A short name given a long spoken form: the audio with the entry is clearly longer. */
const LONG_ALIAS: LexiconEntryInput = { grapheme: 'Zog', alias: 'the honourable and most distinguished Zog of Albania', language: 'en' };

/** A small text limit, for a small body limit. */
const MAX_TEXT = 20_000;
const BODY_LIMIT = bodyLimitFor(MAX_TEXT);

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({ maxTextLength: MAX_TEXT });
});
afterAll(() => gateway.stop());
beforeEach(async () => {
  expect((await gateway.api(LEXICON, { method: 'DELETE' })).status).toBe(200);
});

const send = (method: string, route: string, body: unknown) =>
  gateway.api(route, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const upload = (format: 'pls' | 'csv', data: string, options: { mode?: string; language?: string } = {}) =>
  send('POST', `${LEXICON}/import`, { format, data, ...options });
const entries = async () => ((await (await gateway.api(LEXICON)).json()) as { entries: LexiconEntry[] }).entries;
const seconds = async (response: Response) => {
  expect(response.status).toBe(200);
  return expectSpeech(Buffer.from(await response.arrayBuffer()));
};
const spoken = (text: string, extra: object = {}) => gateway.post('/api/v1/tts/synthesize', { text, ...extra });
const errorOf = async (response: Response) => ({ status: response.status, ...((await response.json()) as { error: object }).error });

describe('lexicon entries change the audio', () => {
  it('inline and in previews, by alias', async () => {
    const text = 'Zog is here.';
    const before = await seconds(await spoken(text));
    const previewBefore = await seconds(await gateway.post('/api/v1/tts/preview', { text }));
    expect((await send('PUT', LEXICON, { entries: [LONG_ALIAS] })).status).toBe(200);
    const after = await seconds(await spoken(text));
    expect(after).toBeGreaterThan(before + 1.5);
    expect(await seconds(await gateway.post('/api/v1/tts/preview', { text }))).toBeGreaterThan(previewBefore + 1.5);
    // an entry for another language or voice does nothing here
    await send('PUT', LEXICON, {
      entries: [
        { ...LONG_ALIAS, language: 'de' },
        { ...LONG_ALIAS, voice: 'espeak-ng:en-gb' },
      ],
    });
    expect(Math.abs((await seconds(await spoken(text))) - before)).toBeLessThan(0.05);
  });

  it('on the OpenAI-compatible speech route', async () => {
    // raw 16-bit PCM: its length is its duration
    const pcmBytes = async () => {
      const response = await send('POST', '/v1/audio/speech', {
        model: 'tts-1',
        voice: 'alloy',
        input: 'Zog is here.',
        response_format: 'pcm',
      });
      expect(response.status).toBe(200);
      return (await response.arrayBuffer()).byteLength;
    };
    const before = await pcmBytes();
    await send('PUT', LEXICON, { entries: [LONG_ALIAS] });
    expect(await pcmBytes()).toBeGreaterThan(before * 2);
  });

  it('inline, by eSpeak phonemes', async () => {
    const text = 'Siobhan.';
    const before = await seconds(await spoken(text));
    // eight syllables of phonemes for a two-syllable name
    await send('PUT', LEXICON, { entries: [{ grapheme: 'siobhan', phoneme: "S@v'O:nS@v'O:nS@v'O:nS@v'O:n", language: 'en-US' }] });
    expect(await seconds(await spoken(text))).toBeGreaterThan(before + 0.8);
  });

  it('in every chunk of a job, as it was when the job was queued', async () => {
    const text = Array.from({ length: 12 }, (_, i) => `Sentence ${i + 1} is about Zog and his kingdom by the sea.`).join(' ');
    const job = async () => {
      const accepted = (await (await spoken(text, { mode: 'job' })).json()) as { job_id: string };
      const done = (await waitForJob(gateway, accepted.job_id)) as {
        status: string;
        progress: { total: number };
        audio?: { duration_s: number };
      };
      expect(done.status).toBe('done');
      return done;
    };
    const plain = await job();
    await send('PATCH', LEXICON, { entries: [LONG_ALIAS] });
    const withEntry = await job();
    expect(withEntry.progress.total).toBe(plain.progress.total);
    // twelve times the longer form
    expect(withEntry.audio!.duration_s).toBeGreaterThan(plain.audio!.duration_s + 12 * 1.5);
  });
});

describe('lexicon routes', () => {
  it('patches by key and deletes by id', async () => {
    await send('PUT', LEXICON, { entries: [LONG_ALIAS, { grapheme: 'GIF', alias: 'jif', language: 'en', case_sensitive: true }] });
    const [zog, gif] = await entries();
    const patched = await send('PATCH', LEXICON, { entries: [{ ...LONG_ALIAS, grapheme: 'ZOG', alias: 'King Zog' }], delete: [gif!.id] });
    expect(patched.status).toBe(200);
    expect(await entries()).toEqual([{ ...zog, grapheme: 'ZOG', alias: 'King Zog' }]);
    expect(await errorOf(await gateway.api(`${LEXICON}/${gif!.id}`, { method: 'DELETE' }))).toMatchObject({
      status: 404,
      code: 'not_found',
    });
  });

  it('keeps the lexicon across a restart', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-lexicon-'));
    try {
      const first = await startTestGateway({ dataDir });
      await first.api(LEXICON, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ entries: [LONG_ALIAS] }),
      });
      const saved = await (await first.api(LEXICON)).json();
      await first.stop();
      const second = await startTestGateway({ dataDir });
      expect(await (await second.api(LEXICON)).json()).toEqual(saved);
      await second.stop();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('exports PLS and imports it back to the same entries', async () => {
    const original: LexiconEntryInput[] = [
      LONG_ALIAS,
      { grapheme: 'Siobhan', phoneme: "S@v'O:n", alias: 'Shivawn', language: 'en' },
      { grapheme: 'R&D <labs>', alias: 'research', language: 'en', voice: 'espeak-ng:en-us', case_sensitive: true, whole_word: false },
    ];
    await send('PUT', LEXICON, { entries: original });
    const before = await entries();
    const exported = await gateway.api(`${LEXICON}/export?format=pls&language=en`);
    expect(exported.headers.get('content-type')).toMatch(/^application\/pls\+xml/);
    expect(exported.headers.get('content-disposition')).toBe('attachment; filename="orator-lexicon-en.pls"');
    const pls = await exported.text();
    expect(pls).toContain('<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon"');

    await gateway.api(LEXICON, { method: 'DELETE' });
    const imported = await upload('pls', pls);
    expect(await imported.json()).toEqual({ added: 3, replaced: 0, total: 3 });
    const strip = (list: LexiconEntry[]) => list.map(({ id: _id, ...rest }) => rest);
    expect(strip(await entries())).toEqual(strip(before));
    // importing again replaces each entry by its key
    expect(await (await upload('pls', pls)).json()).toEqual({ added: 0, replaced: 3, total: 3 });
  });

  it('imports CSV, whose entries are then spoken', async () => {
    const before = await seconds(await spoken('Zog.'));
    const csv = 'grapheme,alias,whole_word\r\nZog,"the honourable and most distinguished Zog, King of Albania",true\r\n';
    const imported = await upload('csv', csv, { language: 'en', mode: 'replace' });
    expect(await imported.json()).toEqual({ added: 1, replaced: 0, total: 1 });
    expect(await seconds(await spoken('Zog.'))).toBeGreaterThan(before + 1.5);
    const exported = await (await gateway.api(`${LEXICON}/export?format=csv`)).text();
    expect(exported.split('\r\n')[1]).toBe('Zog,"the honourable and most distinguished Zog, King of Albania",,,en,,false,true');
  });
});

describe('lexicon bad input', () => {
  it('answers malformed PLS and CSV with invalid_lexicon and where the problem is', async () => {
    const pls = '<?xml version="1.0"?>\n<lexicon xml:lang="en">\n  <lexeme><grapheme>Zog</lexeme>\n</lexicon>';
    expect(await errorOf(await upload('pls', pls))).toMatchObject({
      status: 400,
      code: 'invalid_lexicon',
      message: expect.stringMatching(/line 3, column \d+/),
    });
    const bomb = '<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa">]><lexicon xml:lang="en">&a;</lexicon>';
    expect(await errorOf(await upload('pls', bomb))).toMatchObject({
      status: 400,
      code: 'invalid_lexicon',
    });
    expect(await errorOf(await upload('csv', 'grapheme,alias\nZog,"King\n', { language: 'en' }))).toMatchObject({
      status: 400,
      code: 'invalid_lexicon',
      message: 'CSV line 2: a quoted field is not closed.',
    });
    const asCsvFile = await gateway.api(`${LEXICON}/import`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: 'grapheme\n',
    });
    expect(await errorOf(asCsvFile)).toMatchObject({ status: 415, code: 'unsupported_media_type' });
    expect(await entries()).toEqual([]);
  });

  it('answers invalid entries with invalid_request', async () => {
    const bad = [
      { grapheme: 'Zog', language: 'en' },
      { grapheme: 'Zog', phoneme: 'x]] [[y', language: 'en' },
      { grapheme: 'Zog', alias: 'z', language: 'english please' },
      { grapheme: 'x'.repeat(LEXICON_LIMITS.graphemeChars + 1), alias: 'z', language: 'en' },
    ];
    for (const entry of bad) {
      expect(await errorOf(await send('PUT', LEXICON, { entries: [entry] }))).toMatchObject({ status: 400, code: 'invalid_request' });
    }
  });

  it('refuses more entries than the limit with 413 lexicon_too_large, and a body over the limit with payload_too_large', async () => {
    const many = Array.from({ length: LEXICON_LIMITS.entries + 1 }, (_, i) => ({ grapheme: `w${i}`, alias: 'a', language: 'en' }));
    expect(await errorOf(await send('PUT', LEXICON, { entries: many }))).toMatchObject({ status: 413, code: 'lexicon_too_large' });
    const csv = `grapheme,alias\n${many.map((e) => `${e.grapheme},a`).join('\n')}\n`;
    expect(await errorOf(await upload('csv', csv, { language: 'en' }))).toMatchObject({
      status: 413,
      code: 'lexicon_too_large',
    });
    const huge = `grapheme,alias\n${'x,y\n'.repeat(BODY_LIMIT / 4)}`;
    expect(await errorOf(await upload('csv', huge, { language: 'en' }))).toMatchObject({
      status: 413,
      code: 'payload_too_large',
      message: expect.stringContaining(`(${BODY_LIMIT} bytes)`),
    });
    expect(await entries()).toEqual([]);
  });
});
