import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../contract';
import { LEXICON_FILE } from '../lexicon/file';
import { LexiconService } from './lexicon';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-lexicon-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const saved = async () => (JSON.parse(await readFile(path.join(dataDir, LEXICON_FILE), 'utf8')) as { entries: unknown[] }).entries;
const voice = { voiceId: 'flite:kal16', language: 'en-US' };

describe('LexiconService', () => {
  it('changes nothing when a patch names an unknown id', async () => {
    const lexicon = await LexiconService.open(dataDir);
    await lexicon.replace([{ grapheme: 'Zog', alias: 'King Zog', language: 'en' }]);
    const attempt = lexicon.patch({ entries: [{ grapheme: 'GIF', alias: 'jif', language: 'en' }], delete: ['nope'] });
    await expect(attempt).rejects.toMatchObject({ code: 'not_found' });
    expect(lexicon.list().entries.map((e) => e.grapheme)).toEqual(['Zog']);
    expect(await saved()).toHaveLength(1);
  });

  it('saves changes made at once in the order they were made, and the rewrite follows them', async () => {
    const lexicon = await LexiconService.open(dataDir);
    expect(lexicon.pronounce('Zog and GIF', voice).text).toBe('Zog and GIF');
    await Promise.all(
      ['Zog', 'GIF', 'SQL'].map((grapheme) => lexicon.patch({ entries: [{ grapheme, alias: grapheme.toLowerCase(), language: 'en' }] })),
    );
    expect(await saved()).toHaveLength(3);
    expect(lexicon.pronounce('Zog and GIF', voice).text).toBe('zog and gif');
    const reopened = await LexiconService.open(dataDir);
    expect(reopened.list()).toEqual(lexicon.list());
  });

  it('refuses a lexicon file that is not JSON, and drops entries that do not fit the schema', async () => {
    await writeFile(path.join(dataDir, LEXICON_FILE), '{"entries": [');
    await expect(LexiconService.open(dataDir)).rejects.toThrow(/lexicon\.json is not JSON\. Fix it, or move it aside/);
    const good = { id: '1', grapheme: 'Zog', alias: 'King Zog', language: 'en', case_sensitive: false, whole_word: true };
    await writeFile(path.join(dataDir, LEXICON_FILE), JSON.stringify({ version: 1, entries: [good, { grapheme: 7 }] }));
    expect((await LexiconService.open(dataDir)).list().entries).toEqual([good]);
  });

  it('exports PLS of one language only', async () => {
    const lexicon = await LexiconService.open(dataDir);
    await lexicon.replace([
      { grapheme: 'Zog', alias: 'King Zog', language: 'en' },
      { grapheme: 'Zog', alias: 'König Zog', language: 'de' },
    ]);
    expect(() => lexicon.export('pls', {})).toThrow(ApiError);
    expect(lexicon.export('pls', { language: 'de' })).toContain('<alias>König Zog</alias>');
    expect(lexicon.export('pls', { language: 'de' })).not.toContain('King Zog');
  });
});
