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
