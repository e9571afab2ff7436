import type { Locator, Page } from '@playwright/test';
import type { CompareSession as SavedSession } from '../electron/contract';
import { measureLoudness } from '../electron/audio/loudness';
import { decodeWav } from '../electron/audio/wav';
import type { CompareSession } from '../renderer/src/lib/compare-export';
import { api, expect, test, type Gateway } from './fixtures';
import { addCompareVoice } from './helpers';

const TEXT = 'The first sentence is short. The second one runs a little longer than the first. Then a third. And the last one.';

/** Chooses voices in the search picker: the first `count` results of an engine (each Add takes its voice off the list). */
async function chooseVoices(page: Page, engine: string, count: number) {
  await page.getByRole('combobox', { name: 'Engine' }).selectOption({ label: engine });
  const results = page.getByRole('list', { name: 'Matching voices' });
  for (let i = 0; i < count; i++) await results.getByRole('button', { name: /^Add / }).first().click();
  await expect(page.getByRole('list', { name: 'Chosen voices' }).getByRole('listitem')).toHaveCount(count);
}

async function startSession(page: Page, { blind }: { blind: boolean }) {
  await page.getByRole('textbox', { name: 'Texts to compare' }).fill(TEXT);
  if (blind) await page.getByRole('checkbox', { name: 'Blind' }).check();
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
}

const takesOf = (page: Page) => page.getByRole('list', { name: 'Takes' }).getByRole('listitem');

async function allReady(takes: Locator, count: number) {
  await expect(takes).toHaveCount(count);
  for (const take of await takes.all()) await expect(take).toHaveAttribute('data-played-url', /^blob:/, { timeout: 240_000 });
}

async function saved(gateway: Gateway): Promise<SavedSession> {
  const { sessions } = (await (await api(gateway, '/api/v1/tts/compare/sessions')).json()) as { sessions: { session_id: string }[] };
  return (await (await api(gateway, `/api/v1/tts/compare/sessions/${sessions[0]!.session_id}`)).json()) as SavedSession;
}

test('a 12-voice blind session, rated by keyboard only, reopens after a reload with everything intact', async ({
  studio: page,
  gateway,
  snap,
}) => {
  test.setTimeout(400_000);
  await page.getByRole('tab', { name: 'Compare' }).click();
  await chooseVoices(page, 'eSpeak NG (embedded)', 12);
  await startSession(page, { blind: true });
  const takes = takesOf(page);
  await allReady(takes, 12);
  // nothing names a voice, and every take plays as long as the others (edge silence cut, padded)
  await expect(page.getByRole('list', { name: 'Takes' })).not.toContainText(/English|eSpeak/);
  const durations = await takes.evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-duration'))));
  expect(Math.max(...durations) - Math.min(...durations)).toBeLessThan(0.01);

  // keyboard only, focus left on the page: takes 1–9 by digit, then ↓ for 10–12; R and a digit rates
  await page.getByRole('heading', { name: 'Compare voices' }).click();
  const stars = (i: number) => (i % 5) + 1;
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press(i < 9 ? String(i + 1) : 'ArrowDown');
    await expect(takes.nth(i)).toHaveClass(/active/);
    await page.keyboard.press('r');
    await page.keyboard.press(String(stars(i)));
    await expect(takes.nth(i).getByRole('radio', { name: `${stars(i)} star` })).toBeChecked();
  }
  await page.keyboard.press('n');
  await page.keyboard.type('Too fast here');
  await expect(takes.nth(11).getByRole('textbox', { name: /^Note on/ })).toHaveValue('Too fast here');
  await page.keyboard.press('Tab'); // leaves the note; keys work again
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await page.keyboard.press('Escape');
  await snap('compare-blind');
  const before = await takes.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-take')));
  await expect.poll(async () => (await saved(gateway)).takes.find((t) => t.note)?.note).toBe('Too fast here');

  await page.reload();
  await page.getByRole('tab', { name: 'Compare' }).click();
  await allReady(takes, 12);
  expect(await takes.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-take')))).toEqual(before);
  for (let i = 0; i < 12; i++) await expect(takes.nth(i).getByRole('radio', { name: `${stars(i)} star` })).toBeChecked();
  await expect(takes.nth(11).getByRole('textbox', { name: /^Note on/ })).toHaveValue('Too fast here');
  await expect(page.getByRole('button', { name: 'Reveal voices' })).toBeVisible();
});

test('switching takes keeps the sentence: the next voice starts at that sentence (±50 ms), a waveform seeks where clicked', async ({
  studio: page,
  gateway,
  snap,
}) => {
  test.setTimeout(240_000);
  await page.getByRole('tab', { name: 'Compare' }).click();
  await page.getByRole('searchbox', { name: 'Search voices' }).fill('en-us');
  for (const engine of ['eSpeak NG (embedded)', 'SVOX Pico (embedded)']) {
    await page
      .getByRole('list', { name: 'Matching voices' })
      .getByRole('button', { name: new RegExp(`^Add .*${engine.replace(/[()]/g, '\\$&')}`) })
      .first()
      .click();
  }
  await startSession(page, { blind: false });
  const takes = takesOf(page);
  await allReady(takes, 2);
  const session = await saved(gateway);
  const startOf = (row: number, n: number) => session.takes[row]!.timings!.sentences[n]!.start_s;
  // the voices speak at different speeds: sentence 4 starts at different seconds
  expect(Math.abs(startOf(0, 3) - startOf(1, 3))).toBeGreaterThan(0.1);

  await page.getByRole('button', { name: /^Play sentence 4:/ }).click();
  await expect(takes.nth(0)).toHaveClass(/active/);
  await expect.poll(async () => Number(await takes.nth(0).getAttribute('data-seeked-to'))).toBeCloseTo(startOf(0, 3), 1);
  expect(Math.abs(Number(await takes.nth(0).getAttribute('data-seeked-to')) - startOf(0, 3))).toBeLessThan(0.05);
  await page.keyboard.press('ArrowDown');
  await expect(takes.nth(1)).toHaveClass(/active/);
  await expect.poll(async () => Math.abs(Number(await takes.nth(1).getAttribute('data-seeked-to')) - startOf(1, 3))).toBeLessThan(0.05);
  await expect(page.getByRole('list', { name: 'Sentences' }).locator('[aria-current="true"]')).toHaveAttribute('data-sentence', '3');

  // a click at 75 % of the other take's waveform plays it from there, not from the first take's second
  await page.keyboard.press('1');
  const wave = takes.nth(1).locator('.waveform');
  const box = (await wave.boundingBox())!;
  await wave.click({ position: { x: box.width * 0.75, y: box.height / 2 } });
  await expect(takes.nth(1)).toHaveClass(/active/);
  const duration = Number(await takes.nth(1).getAttribute('data-duration'));
  await expect.poll(async () => Number(await takes.nth(1).getAttribute('data-seeked-to')) / duration).toBeGreaterThan(0.7);
  await snap('compare');
});

test('a pairwise round ends in a ranking, kept with the session', async ({ studio: page, gateway }) => {
  test.setTimeout(240_000);
  await page.getByRole('tab', { name: 'Compare' }).click();
  await chooseVoices(page, 'eSpeak NG (embedded)', 3);
  await startSession(page, { blind: true });
  await allReady(takesOf(page), 3);
  await page.getByRole('button', { name: 'Pairwise' }).click();
  const round = page.getByRole('region', { name: 'Pairwise round' });
  const shownPair = async () => (await round.getByRole('button', { name: /^Play / }).allTextContents()).join(' / ');
  let choices = 0;
  for (; choices < 3 && (await round.getByRole('button', { name: 'A is better' }).count()) > 0; choices++) {
    const pair = await shownPair();
    await round.getByRole('button', { name: 'A is better' }).click();
    // the next pair (never the same one), or the ranking once the choices decide it
    await expect.poll(shownPair).not.toBe(pair);
  }
  const ranking = round.getByRole('list', { name: 'Ranking' }).getByRole('listitem');
  await expect(ranking).toHaveCount(3);
  const order = await ranking.allTextContents();
  expect(new Set(order).size).toBe(3);
  // every choice saved on the gateway before the reload
  await expect.poll(async () => (await saved(gateway)).pairs.length).toBe(choices);
  await page.reload();
  await page.getByRole('tab', { name: 'Compare' }).click();
  await allReady(takesOf(page), 3);
  await page.getByRole('button', { name: 'Pairwise' }).click();
  await expect(page.getByRole('list', { name: 'Ranking' }).getByRole('listitem')).toHaveText(order);
});

test.describe(() => {
  // The test reads the audio each take's player holds (a blob: URL), which the studio's CSP rightly
  // keeps fetch() away from.
  test.use({ bypassCSP: true });
  test('exports: names unique per session and time, loudness matched, verdicts and ranking in the files', async ({
    studio: page,
    snap,
  }) => {
    test.setTimeout(240_000);
    await page.getByRole('tab', { name: 'Compare' }).click();
    for (const voice of ['espeak-ng:en-us', 'svox-pico:en-US', 'flite:kal16']) await addCompareVoice(page, voice);
    await startSession(page, { blind: false });
    const takes = takesOf(page);
    await allReady(takes, 3);
    const played: number[] = [];
    for (const take of await takes.all()) {
      const { samples, sampleRate } = decodeWav(await blobBytes(page, (await take.getAttribute('data-played-url'))!));
      played.push(measureLoudness(samples, sampleRate).integratedLufs);
    }
    expect(Math.max(...played) - Math.min(...played)).toBeLessThan(1);
    await takes.nth(0).locator('label', { hasText: '4 stars' }).click();
    await takes
      .nth(2)
      .getByRole('textbox', { name: /^Note on/ })
      .fill('=buzzy, "robotic"');
    await snap('compare-session');

    const first = await downloaded(page, page.getByRole('button', { name: 'Export JSON' }));
    const json = JSON.parse(first.text) as CompareSession;
    expect(json.takes.map((t) => [t.voice, t.rating, t.note])).toEqual([
      ['espeak-ng:en-us', 4, ''],
      ['svox-pico:en-US', null, ''],
      ['flite:kal16', null, '=buzzy, "robotic"'],
    ]);
    const csv = await downloaded(page, page.getByRole('button', { name: 'Export CSV' }));
    expect(csv.text).toContain(`"'=buzzy, ""robotic"""`);

    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('textbox', { name: 'Session name' }).fill('Narrators B');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Duplicate' }).click();
    await expect(page.getByRole('combobox', { name: 'Session' })).toContainText('Narrators B (copy)');
    const second = await downloaded(page, page.getByRole('button', { name: 'Export CSV' }));
    const zip = await downloaded(page, page.getByRole('button', { name: 'Export takes (ZIP)' }));
    const names = [first.name, csv.name, second.name, zip.name];
    console.log(`export names: ${names.join(', ')}`);
    expect(new Set(names.map((n) => n.replace(/\.\w+$/, ''))).size).toBeGreaterThanOrEqual(2);
    expect(second.name).toMatch(/^orator-compare-narrators-b-copy-\d{4}-\d\d-\d\d-\d{6}\.csv$/);
    expect(csv.name).not.toBe(second.name);
  });
});

/** The bytes behind a blob: URL of the page (what a take's player holds). */
async function blobBytes(page: Page, url: string): Promise<Buffer> {
  const base64 = await page.evaluate(async (src) => {
    const blob = await (await fetch(src)).blob();
    return new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result).split(',')[1]!);
      reader.readAsDataURL(blob);
    });
  }, url);
  return Buffer.from(base64, 'base64');
}

async function downloaded(page: Page, button: Locator): Promise<{ name: string; text: string }> {
  const downloading = page.waitForEvent('download');
  await button.click();
  const download = await downloading;
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return { name: download.suggestedFilename(), text: Buffer.concat(chunks).toString('utf8') };
}
