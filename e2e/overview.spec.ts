import { api, ARTIFACTS, expect, test } from './fixtures';
import { dock, longText, playerReady } from './helpers';
import path from 'node:path';

const CHAPTER = `Chapter One

The lighthouse stood at the end of the world, or so it seemed to Mara on the night she arrived. The wind came off the water in long grey sheets, and the lamp above her turned and turned, patient as a clock.

She set her bag down on the stone floor and listened. Somewhere below, the sea was counting the rocks one by one.`;

async function startJob(gateway: Parameters<typeof api>[0], text: string, voice: string): Promise<string> {
  const response = await api(gateway, '/api/v1/tts/synthesize', { method: 'POST', body: JSON.stringify({ text, voice, mode: 'job' }) });
  expect(response.status).toBe(202);
  return ((await response.json()) as { job_id: string }).job_id;
}

test('the studio at a glance: finished, running and failed jobs side by side with the player', async ({ studio: page, gateway }) => {
  const done1 = await startJob(gateway, `Chapter Two. The Keeper's Log\n\n${longText(2500)}`, 'espeak-ng:en-gb');
  const done2 = await startJob(gateway, `Chapter Three. A Bell Beyond the Breakers\n\n${longText(1800)}`, 'espeak-ng:en-us');
  const failed = await startJob(gateway, `Chapter Four. Winter Stores\n\n${longText(400_000)}`, 'espeak-ng:en-gb-x-rp');
  expect((await api(gateway, `/api/v1/tts/jobs/${failed}`, { method: 'DELETE' })).status).toBe(200);
  await expect(page.locator(`li.job[data-job-id="${done1}"]`)).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(page.locator(`li.job[data-job-id="${done2}"]`)).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(page.locator(`li.job[data-job-id="${failed}"]`)).toContainText('Cancelled');
  await expect(page.locator(`li.job[data-job-id="${done1}"] .job-title`)).toHaveText(
    /^Chapter Two. The Keeper's Log The lighthouse keeper/,
  );

  await page.getByRole('textbox', { name: 'Text to speak' }).fill(CHAPTER);
  await page
    .locator(`li.job[data-job-id="${done1}"]`)
    .getByRole('button', { name: /^Play job/ })
    .click();
  await playerReady(page);
  await dock(page).getByRole('button', { name: 'Pause' }).click();
  // Seek by clicking the waveform, about a third of the way in.
  const wave = dock(page).getByRole('slider', { name: 'Playback position' });
  const box = (await wave.boundingBox())!;
  await page.mouse.click(box.x + box.width * 0.36, box.y + box.height / 2);
  await expect.poll(async () => Number(await dock(page).getAttribute('data-time'))).toBeGreaterThan(30);

  const running = await startJob(gateway, `Chapter Five. The Relief Boat\n\n${longText(400_000)}`, 'espeak-ng:en-us');
  const row = page.locator(`li.job[data-job-id="${running}"]`);
  await expect
    .poll(async () => Number(await row.getByRole('progressbar').getAttribute('value')), { timeout: 30_000 })
    .toBeGreaterThan(0.04);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(ARTIFACTS, 'studio-overview.png') });

  await row.getByRole('button', { name: /^Cancel job/ }).click();
  await expect(row).toHaveAttribute('data-status', 'failed');
});
