import { readFile } from 'node:fs/promises';
import { api, expect, test } from './fixtures';
import { dock, expectTimeAdvances, longText, playerReady } from './helpers';

test('long text becomes a job: progress moves, it finishes, streams, plays and downloads a WAV', async ({
  studio: page,
  gateway,
  snap,
}) => {
  // About 8 s on an idle 2-core machine; room for a busy one.
  test.setTimeout(150_000);
  const editor = page.getByRole('textbox', { name: 'Text to speak' });
  await editor.fill(longText(20_000));
  await expect(page.getByTestId('delivery-hint')).toContainText('queued as a job');
  await page.getByRole('button', { name: 'Synthesize' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Queued as a job' })).toBeVisible();

  const row = page.locator('li.job').first();
  await expect(row).toHaveAttribute('data-status', 'running');
  // Progress moves: several distinct values are seen on the bar before the job is done.
  const seen = new Set<number>();
  const bar = row.getByRole('progressbar', { name: 'Progress' });
  await expect
    .poll(
      async () => {
        const status = await row.getAttribute('data-status');
        // A short timeout: the bar goes away when the job is done, between the two reads.
        if (status === 'running') seen.add(Number((await bar.getAttribute('data-done', { timeout: 500 }).catch(() => null)) ?? -1));
        return status;
      },
      { timeout: 120_000, intervals: [100] },
    )
    .toBe('done');
  seen.delete(-1);
  expect(seen.size).toBeGreaterThan(1);

  const jobId = (await row.getAttribute('data-job-id'))!;
  const job = (await (await api(gateway, `/api/v1/tts/jobs/${jobId}`)).json()) as { audio: { bytes: number; duration_s: number } };
  await expect(row).toContainText('Done');

  // A quarter of an hour of audio opens at once: no download or decoding of the whole file first.
  const opening = Date.now();
  await row.getByRole('button', { name: /^Play job/ }).click();
  const duration = await playerReady(page);
  expect(Date.now() - opening).toBeLessThan(5000);
  expect(duration).toBeGreaterThan(15 * 60);
  expect(Math.abs(duration - job.audio.duration_s)).toBeLessThan(0.5);
  // Peaks from the gateway, audio streamed with Range requests (not fetched whole).
  await expect(dock(page)).toHaveAttribute('data-mode', 'stream');
  await expectTimeAdvances(page);
  await snap('jobs-done-playing');

  const downloading = page.waitForEvent('download');
  await row.getByRole('button', { name: /^Download job/ }).click();
  const download = await downloading;
  const wav = await readFile((await download.path())!);
  expect(wav.length).toBe(job.audio.bytes);
  expect(wav.subarray(0, 4).toString('ascii')).toBe('RIFF');
  expect(wav.subarray(8, 12).toString('ascii')).toBe('WAVE');
  expect(wav.readUInt16LE(22)).toBe(1); // mono
  expect(wav.readUInt16LE(34)).toBe(16); // 16-bit

  // the job keeps its WAV, so it downloads in the other formats too, encoded at download
  await row.getByRole('combobox', { name: /^Download format/ }).selectOption('flac');
  const encoding = page.waitForEvent('download');
  await row.getByRole('button', { name: /^Download job .*, FLAC, encoded now$/ }).click();
  const flac = await encoding;
  expect(flac.suggestedFilename()).toMatch(/^orator-job-[0-9a-f]{8}\.flac$/);
  expect((await readFile((await flac.path())!)).subarray(0, 4).toString('ascii')).toBe('fLaC');

  // Delete asks first, then removes it from the list at once, and from the gateway when its undo time is over.
  await row.getByRole('button', { name: /^Delete job/ }).click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /^Delete/ })
    .click();
  await expect(page.locator(`li.job[data-job-id="${jobId}"]`)).toHaveCount(0);
  await expect.poll(async () => (await api(gateway, `/api/v1/tts/jobs/${jobId}`)).status, { timeout: 15_000 }).toBe(404);
});

test('cancels a running job, then retries it: the new job replaces the cancelled one', async ({ studio: page, gateway, snap }) => {
  await page.getByRole('textbox', { name: 'Text to speak' }).fill(longText(400_000));
  await page.getByRole('button', { name: 'Synthesize' }).click();
  const row = page.locator('li.job').first();
  await expect(row).toHaveAttribute('data-status', 'running');
  await row.getByRole('button', { name: /^Cancel job/ }).click();
  await expect(row).toHaveAttribute('data-status', 'failed');
  await expect(row).toContainText('Cancelled');
  await snap('jobs-cancelled');

  const cancelledId = await row.getAttribute('data-job-id');
  await row.getByRole('button', { name: /^Retry job/ }).click();
  const retried = page.locator('li.job').first();
  await expect(retried).not.toHaveAttribute('data-job-id', cancelledId!);
  await expect(retried).toHaveAttribute('data-status', 'running');
  // No twin: the cancelled job is gone from the list and the gateway; focus is on its replacement.
  await expect(page.locator(`li.job[data-job-id="${cancelledId}"]`)).toHaveCount(0);
  expect((await api(gateway, `/api/v1/tts/jobs/${cancelledId}`)).status).toBe(404);
  await expect(retried).toBeFocused();
  await retried.getByRole('button', { name: /^Cancel job/ }).click();
  await expect(retried).toHaveAttribute('data-status', 'failed');
});

test('jobs started elsewhere appear live in the list', async ({ studio: page, gateway, snap }) => {
  const response = await api(gateway, '/api/v1/tts/synthesize', {
    method: 'POST',
    body: JSON.stringify({ text: longText(3000), voice: 'espeak-ng:en-gb' }),
  });
  expect(response.status).toBe(202);
  const { job_id } = (await response.json()) as { job_id: string };
  const row = page.locator(`li.job[data-job-id="${job_id}"]`);
  await expect(row).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  // The row leads with the start of the text (the gateway's title); voice and engine below it.
  const { title } = (await (await api(gateway, `/api/v1/tts/jobs/${job_id}`)).json()) as { title: string };
  expect(title.startsWith('The lighthouse keeper climbed the spiral stairs')).toBe(true);
  await expect(row.locator('.job-title')).toHaveText(title);
  await expect(row.locator('.job-meta')).toContainText('English (Great Britain) · eSpeak NG (embedded)');
  await row.getByRole('button', { name: /^Play job “The lighthouse keeper/ }).click();
  await expect(dock(page).locator('.dock-title strong')).toHaveText(`${title} — English (Great Britain) · eSpeak NG (embedded)`);
  await snap('jobs-started-elsewhere');
});

test('re-renders a finished job with the lexicon: its changed sentences listened to first, then a new job', async ({
  studio: page,
  gateway,
}) => {
  const text = 'Branoc rowed out at dawn. The gulls followed his boat. The water was grey. Branoc counted the nets.';
  const response = await api(gateway, '/api/v1/tts/synthesize', { method: 'POST', body: JSON.stringify({ text, mode: 'job' }) });
  const { job_id } = (await response.json()) as { job_id: string };
  const row = page.locator(`li.job[data-job-id="${job_id}"]`);
  await expect(row).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  const entries = [{ grapheme: 'Branoc', alias: 'Branoc of the seven harbours and the long grey coast', language: 'en' }];
  expect((await api(gateway, '/api/v1/tts/lexicon', { method: 'PUT', body: JSON.stringify({ entries }) })).status).toBe(200);

  await row.getByRole('button', { name: /^Re-render with lexicon: job / }).click();
  await expect(row.getByTestId('rerender-plan')).toHaveText(/^2 sentences to synthesize/);
  const listen = row.getByRole('button', { name: 'Listen to “Branoc counted the nets.”' });
  await expect(row.getByRole('button', { name: /^Listen to/ })).toHaveCount(2);
  // the sentence as the re-render will say it: the alias makes it several seconds
  await listen.click();
  expect(await playerReady(page)).toBeGreaterThan(3);
  await expect(dock(page)).toContainText('Changed sentence · Branoc counted the nets.');

  // the list may hold other tests' jobs (one gateway per worker): the new job is one more, newest first
  const renders = page.locator('li.job');
  const listed = await renders.count();
  await row.getByRole('button', { name: 'Re-render', exact: true }).click();
  await expect(renders).toHaveCount(listed + 1);
  const rerendered = renders.first();
  await expect(rerendered).not.toHaveAttribute('data-job-id', job_id);
  await expect(rerendered).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  const duration = async (id: string) =>
    ((await (await api(gateway, `/api/v1/tts/jobs/${id}`)).json()) as { audio: { duration_s: number } }).audio.duration_s;
  expect(await duration((await rerendered.getAttribute('data-job-id'))!)).toBeGreaterThan((await duration(job_id)) + 3);
  // the gateway serves the specs that follow, whose lexicon starts empty
  expect((await api(gateway, '/api/v1/tts/lexicon', { method: 'DELETE' })).status).toBe(200);
});
