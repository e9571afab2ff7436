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
