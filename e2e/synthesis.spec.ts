import { expect, test } from './fixtures';
import { dock, expectTimeAdvances, playerReady } from './helpers';

test('synthesizes short text inline: waveform, playback, keyboard, speed, download', async ({ studio: page, snap }) => {
  const editor = page.getByRole('textbox', { name: 'Text to speak' });
  await editor.fill('Orator reads this sentence aloud. Then it reads a second one, a little longer than the first.');
  await expect(page.getByTestId('delivery-hint')).toContainText('Plays at once');
  await page.getByRole('button', { name: 'Synthesize' }).click();

  const duration = await playerReady(page);
  expect(duration).toBeGreaterThan(3);
  await expect(dock(page)).toHaveAttribute('data-mode', 'inline');
  // The waveform is drawn (wavesurfer renders canvases in its shadow root).
  await expect
    .poll(() =>
      dock(page)
        .locator('.waveform > div')
        .evaluate((host) => host.shadowRoot?.querySelectorAll('canvas').length ?? 0),
    )
    .toBeGreaterThan(0);
  await expectTimeAdvances(page);

  // Keyboard: Space pauses, the arrow seeks.
  await page.locator('body').click({ position: { x: 5, y: 60 } });
  await page.keyboard.press('Space');
  await expect(dock(page).getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  const paused = Number(await dock(page).getAttribute('data-time'));
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => Number(await dock(page).getAttribute('data-time'))).toBeGreaterThan(Math.min(paused + 2, duration - 0.5));

  await dock(page).getByRole('combobox', { name: 'Playback speed' }).selectOption('1.5');
  await dock(page).getByRole('slider', { name: 'Zoom' }).fill('100');

  const downloading = page.waitForEvent('download');
  await dock(page).getByRole('button', { name: 'Download audio' }).click();
  const file = await (await downloading).createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of file) chunks.push(chunk as Buffer);
  const wav = Buffer.concat(chunks);
  expect(wav.subarray(0, 4).toString('ascii')).toBe('RIFF');
  expect(wav.subarray(8, 12).toString('ascii')).toBe('WAVE');
  await snap('synthesis-inline');
});

test('previews the first sentence, or the selection', async ({ studio: page, snap }) => {
  const editor = page.getByRole('textbox', { name: 'Text to speak' });
  await editor.fill('Short first sentence.\nThen a much longer second sentence that takes a while to say.');
  await page.getByRole('button', { name: 'Preview first sentence' }).click();
  const first = await playerReady(page);
  await expectTimeAdvances(page);

  // Select the second line with the keyboard, as a person would.
  await editor.press('Control+End');
  await editor.press('Shift+Home');
  await page.getByRole('button', { name: 'Preview selection' }).click();
  await expect.poll(async () => Number(await dock(page).getAttribute('data-duration'))).toBeGreaterThan(first + 1);
  await snap('synthesis-preview-selection');
});
