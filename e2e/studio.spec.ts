import { expect, test } from './fixtures';
import { dock, expectTimeAdvances, longText, playerReady } from './helpers';

/**
 * The studio's core path, in both projects: the web studio in Chromium and the desktop app
 * (playwright.config.ts). Connected, it speaks short text at once and queues long text as a job
 * that finishes and streams from the gateway.
 */
test('connects, speaks short text inline, and queues long text as a job that finishes and streams', async ({ studio: page, snap }) => {
  test.setTimeout(120_000);
  // Connected: engines loaded, job events live.
  await expect(page.getByRole('combobox', { name: 'Voice' }).locator('option[value="espeak-ng:en-us"]')).toHaveCount(1);
  await expect(page.getByText('Live')).toBeVisible();

  const editor = page.getByRole('textbox', { name: 'Text to speak' });
  await editor.fill('The studio reads this short sentence aloud at once.');
  await page.getByRole('button', { name: 'Synthesize' }).click();
  expect(await playerReady(page)).toBeGreaterThan(1);
  await expect(dock(page)).toHaveAttribute('data-mode', 'inline');
  await expect
    .poll(() =>
      dock(page)
        .locator('.waveform > div')
        .evaluate((host) => host.shadowRoot?.querySelectorAll('canvas').length ?? 0),
    )
    .toBeGreaterThan(0);
  await expectTimeAdvances(page);
  await snap('studio-inline');

  await editor.fill(longText(3000));
  await expect(page.getByTestId('delivery-hint')).toContainText('queued as a job');
  await page.getByRole('button', { name: 'Synthesize' }).click();
  const row = page.locator('li.job').first();
  await expect(row).toHaveAttribute('data-status', 'done', { timeout: 90_000 });
  await row.getByRole('button', { name: /^Play job/ }).click();
  // Peaks from the gateway and the audio streamed with Range requests, in the browser (service
  // worker) as in the desktop app (its main process adds the key).
  await expect(dock(page)).toHaveAttribute('data-mode', 'stream', { timeout: 30_000 });
  expect(await playerReady(page)).toBeGreaterThan(60);
  await expectTimeAdvances(page);
  await snap('studio-job-streaming');
});
