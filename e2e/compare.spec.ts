import type { Locator, Page } from '@playwright/test';
import { measureLoudness } from '../electron/audio/loudness';
import { decodeWav } from '../electron/audio/wav';
import type { CompareSession } from '../renderer/src/lib/compare-export';
import { expect, test } from './fixtures';

test('compares voices: stacked waveforms, switching keeps the position', async ({ studio: page, snap }) => {
  await page.getByRole('tab', { name: 'Compare' }).click();
  await page.getByRole('combobox', { name: 'Voice 1' }).selectOption('espeak-ng:en-us');
  await page.getByRole('combobox', { name: 'Voice 2' }).selectOption('espeak-ng:en-gb');
  await page.getByRole('button', { name: 'Add voice' }).click();
  await page.getByRole('combobox', { name: 'Voice 3' }).selectOption('espeak-ng:en-gb-scotland');
  await page.getByRole('button', { name: 'Compare', exact: true }).click();

  const takes = page.getByRole('list', { name: 'Takes' }).getByRole('listitem');
  await expect(takes).toHaveCount(3);
  await expect(takes.nth(1)).toHaveAttribute('aria-label', 'Take 2: English (Great Britain) · eSpeak NG (embedded)');
  for (const take of await takes.all()) {
    await expect(take).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
    await expect.poll(async () => Number(await take.getAttribute('data-duration'))).toBeGreaterThan(1);
  }

  await takes.nth(0).getByRole('button', { name: /^Play/ }).click();
  await expect(takes.nth(0)).toHaveClass(/active/);
  await page.waitForTimeout(1200);
  await takes.nth(1).getByRole('button', { name: /^Play/ }).click();
  await expect(takes.nth(1)).toHaveClass(/active/);
  await expect(takes.nth(0).getByRole('button', { name: /^Play/ })).toBeVisible(); // the first one paused
  // The second take started near where the first one was, not at 0:00.
  await expect(takes.nth(1).locator('.take-title .mono')).not.toHaveText(/^0:00 /, { timeout: 5000 });
  await page.keyboard.press('3');
  await expect(takes.nth(2)).toHaveClass(/active/);
  await snap('compare');
});

test('blind compare: voices hidden and takes shuffled until revealed; keys follow the list', async ({ studio: page, snap }) => {
  const chosen = ['espeak-ng:en-us', 'espeak-ng:en-gb', 'espeak-ng:en-gb-scotland'];
  await page.getByRole('tab', { name: 'Compare' }).click();
  await page.getByRole('button', { name: 'Add voice' }).click();
  for (const [i, voice] of chosen.entries()) await page.getByRole('combobox', { name: `Voice ${i + 1}` }).selectOption(voice);
  await page.getByRole('checkbox', { name: 'Blind' }).check();
  await page.getByRole('button', { name: 'Compare', exact: true }).click();

  const takes = page.getByRole('list', { name: 'Takes' }).getByRole('listitem');
  await expect(takes).toHaveCount(3);
  for (const take of await takes.all()) await expect(take).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  // Nothing in the takes names a voice: letters only, in the accessible names and on screen.
  expect(await takes.evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label')))).toEqual(['Take A', 'Take B', 'Take C']);
  await expect(page.getByRole('list', { name: 'Takes' })).not.toContainText(/English|eSpeak/);
  expect(await takes.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-voice')))).toEqual([null, null, null]);
  await page.keyboard.press('2');
  await expect(takes.nth(1)).toHaveClass(/active/);
  await snap('compare-blind');

  await page.getByRole('button', { name: 'Reveal voices' }).click();
  const revealed = await takes.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-voice')));
  // every chosen voice once, in the shuffled order the takes had
  expect([...revealed].sort()).toEqual([...chosen].sort());
  await expect(takes.nth(1)).toHaveClass(/active/);
  await expect(page.getByRole('list', { name: 'Takes' })).toContainText('eSpeak NG');
});

const VOICES = ['espeak-ng:en-us', 'svox-pico:en-US', 'flite:kal16'];

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

test.describe(() => {
  // The test reads the audio each take's player holds (a blob: URL), which the studio's CSP rightly
  // keeps fetch() away from.
  test.use({ bypassCSP: true });
  test('QA session: takes play loudness-matched; ratings and notes are exported as CSV and JSON', async ({ studio: page, snap }) => {
    await page.getByRole('tab', { name: 'Compare' }).click();
    await page.getByRole('button', { name: 'Add voice' }).click();
    for (const [i, voice] of VOICES.entries()) await page.getByRole('combobox', { name: `Voice ${i + 1}` }).selectOption(voice);
    await expect(page.getByRole('checkbox', { name: 'Match loudness' })).toBeChecked();
    await page.getByRole('checkbox', { name: 'Blind' }).check();
    await page.getByRole('button', { name: 'Compare', exact: true }).click();

    const takes = page.getByRole('list', { name: 'Takes' }).getByRole('listitem');
    await expect(takes).toHaveCount(3);
    for (const take of await takes.all()) await expect(take).toHaveAttribute('data-played-url', /^blob:/, { timeout: 30_000 });
    await expect(page.getByTestId('loudness-target')).toContainText('every take plays at');

    // The engines speak at different loudness (as measured by the gateway)...
    const synthesized = (await takes.evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-loudness'))))) as number[];
    expect(Math.max(...synthesized) - Math.min(...synthesized)).toBeGreaterThan(1);
    // ...and what each player actually plays, measured here, is within 1 LU of the others.
    const played: number[] = [];
    for (const take of await takes.all()) {
      const { samples, sampleRate } = decodeWav(await blobBytes(page, (await take.getAttribute('data-played-url'))!));
      played.push(measureLoudness(samples, sampleRate).integratedLufs);
    }
    const spread = Math.max(...played) - Math.min(...played);
    console.log(
      `loudness synthesized ${synthesized.map((l) => l.toFixed(2)).join(' / ')} LUFS; played ${played.map((l) => l.toFixed(2)).join(' / ')} LUFS; spread ${spread.toFixed(3)} LU`,
    );
    expect(spread).toBeLessThan(1);
    await expect(takes.nth(0)).toContainText('LUFS');

    // A verdict per take, blind; export waits for the reveal (the files name the voices).
    await takes.nth(0).locator('label', { hasText: '4 stars' }).click();
    await takes.nth(0).getByRole('textbox', { name: 'Note on take A' }).fill('Clear, a little fast');
    await takes.nth(2).locator('label', { hasText: '2 stars' }).click();
    await takes.nth(2).getByRole('textbox', { name: 'Note on take C' }).fill('=buzzy, "robotic"');
    await expect(takes.nth(0).getByRole('radio', { name: '4 stars' })).toBeChecked();
    await expect(page.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
    await snap('compare-session');
    await page.getByRole('button', { name: 'Reveal voices' }).click();
    const order = (await takes.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-voice')))) as string[];

    const json = await downloaded(page, page.getByRole('button', { name: 'Export JSON' }));
    expect(json.name).toMatch(/^orator-compare-.*\.json$/);
    const session = JSON.parse(json.text) as CompareSession;
    expect(session).toMatchObject({ blind: true, loudness_matched: true, settings: { rate: 1, pitch: 1, volume: 1 } });
    expect(session.text).toContain('The quick brown fox');
    expect(session.takes.map((t) => [t.label, t.voice, t.rating, t.note])).toEqual([
      ['A', order[0], 4, 'Clear, a little fast'],
      ['B', order[1], null, ''],
      ['C', order[2], 2, '=buzzy, "robotic"'],
    ]);
    for (const [i, take] of session.takes.entries()) {
      expect(take.loudness_lufs).toBeCloseTo(synthesized[i]!, 2);
      expect(take.loudness_lufs! + take.gain_db).toBeCloseTo(session.loudness_target_lufs!, 1);
    }

    const csv = await downloaded(page, page.getByRole('button', { name: 'Export CSV' }));
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^position,label,voice,voice_name,engine,rating,note,/);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(`1,A,${order[0]},`);
    expect(lines[3]).toContain(`,2,"'=buzzy, ""robotic""",`);
  });
});
