import { api, expect, finishedJob, test } from './fixtures';
import { longText } from './helpers';

test('rename: Enter saves the title, it persists over a reload; a blank title is refused', async ({ studio: page, gateway, snap }) => {
  const id = await finishedJob(gateway, 'Apache License Version 2.0, January 2004. Chapter seven of the book.');
  const row = page.locator(`li.job[data-job-id="${id}"]`);
  await expect(row).toHaveAttribute('data-status', 'done');

  await row.getByRole('button', { name: /^Rename job/ }).click();
  const input = row.getByRole('textbox', { name: 'Job title' });
  await expect(input).toBeFocused();
  await input.fill('   ');
  await input.press('Enter');
  await expect(row.getByRole('alert')).toHaveText('A title needs at least one visible character.');
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  await input.fill('  Chapter 7: The Storm ');
  await input.press('Enter');
  await expect(row.locator('.job-title')).toHaveText('Chapter 7: The Storm');
  await expect(row.getByRole('button', { name: /^Rename job/ })).toBeFocused();
  expect(((await (await api(gateway, `/api/v1/tts/jobs/${id}`)).json()) as { title: string }).title).toBe('Chapter 7: The Storm');

  // Escape leaves the title as it was.
  await row.getByRole('button', { name: /^Rename job/ }).click();
  await row.getByRole('textbox', { name: 'Job title' }).fill('Not this');
  await row.getByRole('textbox', { name: 'Job title' }).press('Escape');
  await expect(row.locator('.job-title')).toHaveText('Chapter 7: The Storm');

  await page.reload();
  await expect(page.locator(`li.job[data-job-id="${id}"] .job-title`)).toHaveText('Chapter 7: The Storm');
  await snap('jobs-renamed');
});

test('delete asks, naming the size; Keep keeps; Delete moves focus to the next row; Undo restores', async ({
  studio: page,
  gateway,
  snap,
}) => {
  const older = await finishedJob(gateway, 'The older of two jobs, kept after the other is deleted.');
  const newer = await finishedJob(gateway, 'The newer of two jobs, which is deleted.');
  const row = page.locator(`li.job[data-job-id="${newer}"]`);
  await expect(row).toHaveAttribute('data-status', 'done');
  const { audio } = (await (await api(gateway, `/api/v1/tts/jobs/${newer}`)).json()) as { audio: { bytes: number } };
  const size = `${(audio.bytes / 1024).toFixed(0)} KB`;
  // The size is on the download button before anything is fetched.
  await expect(row.getByRole('button', { name: /^Download job/ })).toHaveText(size);

  const deleteButton = row.getByRole('button', { name: /^Delete job/ });
  await deleteButton.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: /^Delete “The newer of two jobs/ });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`Its audio goes too: ${size}`);
  // Keep has the focus: the Enter that deleted at once before now keeps the job.
  await expect(dialog.getByRole('button', { name: 'Keep' })).toBeFocused();
  await snap('jobs-delete-dialog');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(deleteButton).toBeFocused();
  expect((await api(gateway, `/api/v1/tts/jobs/${newer}`)).status).toBe(200);

  // Escape keeps it too.
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect((await api(gateway, `/api/v1/tts/jobs/${newer}`)).status).toBe(200);

  // Delete: the row goes and focus moves to the next one; Undo brings it back, focused.
  await deleteButton.click();
  await expect(dialog).toContainText('You can undo it for 10 seconds.');
  await dialog.getByRole('button', { name: `Delete ${size}` }).click();
  await expect(row).toHaveCount(0);
  await expect(page.locator(`li.job[data-job-id="${older}"]`)).toBeFocused();
  const toast = page.getByRole('status').filter({ hasText: 'Deleted “The newer of two jobs' });
  await expect(toast).toBeVisible();
  await snap('jobs-delete-undo');
  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect(row).toBeFocused();
  await expect(toast).toBeHidden();
  expect((await api(gateway, `/api/v1/tts/jobs/${newer}`)).status).toBe(200);

  // Without Undo, the job and its audio are deleted when the toast goes.
  await deleteButton.click();
  await dialog.getByRole('button', { name: `Delete ${size}` }).click();
  await expect(row).toHaveCount(0);
  await expect(toast).toBeVisible();
  await expect(toast).toBeHidden({ timeout: 15_000 });
  await expect.poll(async () => (await api(gateway, `/api/v1/tts/jobs/${newer}`)).status).toBe(404);
  await page.reload();
  await expect(page.locator(`li.job[data-job-id="${older}"]`)).toBeVisible();
  await expect(row).toHaveCount(0);
});

test('a running job shows its progress in percent and the time left', async ({ studio: page, gateway, snap }) => {
  test.setTimeout(120_000);
  const response = await api(gateway, '/api/v1/tts/synthesize', { method: 'POST', body: JSON.stringify({ text: longText(60_000) }) });
  const { job_id } = (await response.json()) as { job_id: string };
  const label = page.locator(`li.job[data-job-id="${job_id}"]`).getByTestId('job-progress');
  await expect(label).toHaveText(/^\d+% · (under a minute|about \d+ min) left$/, { timeout: 60_000 });
  const percent = Number(/^(\d+)%/.exec((await label.textContent()) ?? '')![1]);
  expect(percent).toBeGreaterThan(0);
  expect(percent).toBeLessThan(100);
  await snap('jobs-progress');
  await api(gateway, `/api/v1/tts/jobs/${job_id}`, { method: 'DELETE' });
});

test('search finds a chapter by a word of its text; sort orders by title and duration', async ({ studio: page, gateway, snap }) => {
  const chapters = {
    seven: await finishedJob(gateway, 'Apache License. Chapter seven: the keeper finds the brass telescope.'),
    two: await finishedJob(gateway, 'Apache License. Chapter two, the shortest.'),
    nine: await finishedJob(
      gateway,
      'Apache License. Chapter nine is the longest of these chapters, by a good many words, so it reads longest.',
    ),
  };
  await api(gateway, `/api/v1/tts/jobs/${chapters.two}`, { method: 'PATCH', body: JSON.stringify({ title: 'A chapter called two' }) });
  const rows = page.locator('li.job');
  const idsShown = async () => rows.evaluateAll((items) => items.map((li) => li.getAttribute('data-job-id')));
  await expect(page.locator(`li.job[data-job-id="${chapters.nine}"]`)).toHaveAttribute('data-status', 'done');

  const search = page.getByRole('searchbox', { name: 'Search jobs' });
  await search.fill('BRASS telescope');
  await expect.poll(idsShown).toEqual([chapters.seven]);
  await expect(page.getByRole('heading', { name: 'Jobs' }).locator('..')).toContainText('1 found');
  await snap('jobs-search');
  await search.fill('no chapter says this');
  await expect(rows).toHaveCount(0);
  await expect(page.locator('.jobs .empty')).toHaveText('No job has “no chapter says this” in its title or text.');
  await search.fill('');
  await expect(page.locator(`li.job[data-job-id="${chapters.seven}"]`)).toBeVisible();

  const sort = page.getByRole('combobox', { name: 'Sort jobs' });
  await sort.selectOption({ label: 'Title A–Z' });
  const titles = await page.locator('li.job .job-title').allTextContents();
  expect(titles).toEqual([...titles].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)));
  expect(titles[0]).toBe('A chapter called two');
  await sort.selectOption({ label: 'Longest first' });
  await expect.poll(async () => (await idsShown())[0]).toBe(chapters.nine);
  // The order is kept over a reload.
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Sort jobs' })).toHaveValue('longest');
  await expect.poll(async () => (await idsShown())[0]).toBe(chapters.nine);
});
