import { readFile } from 'node:fs/promises';
import { parseBuffer } from 'music-metadata';
import { expect, finishedJob, test } from './fixtures';

test('export audiobook: two jobs become one MP3 with a chapter each, shown with its progress, then downloaded', async ({
  studio: page,
  gateway,
  snap,
}) => {
  test.setTimeout(120_000);
  const first = await finishedJob(gateway, 'The first chapter is short. It has two sentences.');
  const second = await finishedJob(gateway, 'The second chapter follows it. It ends the book.');
  const row = page.locator(`li.job[data-job-id="${first}"]`);
  await expect(row).toHaveAttribute('data-status', 'done');
  await expect(page.locator(`li.job[data-job-id="${second}"]`)).toHaveAttribute('data-status', 'done');

  await row.getByRole('button', { name: /^Export job/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Export audiobook' });
  await expect(dialog).toBeVisible();
  // other specs' finished jobs are listed too (the gateway is shared): only the one it was opened from is chosen
  await expect(dialog.getByRole('checkbox', { checked: true })).toHaveCount(1);
  await expect(dialog.getByRole('checkbox', { name: /^The first chapter is short/ })).toBeChecked();
  await dialog.getByRole('checkbox', { name: /^The second chapter follows it/ }).check();
  await dialog.getByRole('textbox', { name: 'Title' }).fill('Two Chapters');
  await dialog.getByRole('textbox', { name: 'Author' }).fill('The Studio');
  await dialog.getByRole('combobox', { name: 'Format' }).selectOption('mp3');
  await dialog.getByRole('combobox', { name: 'Chapters' }).selectOption('jobs');
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();

  const downloadButton = dialog.getByRole('button', { name: /^Download Two Chapters\.mp3/ });
  await expect(downloadButton).toBeVisible({ timeout: 60_000 });
  await expect(dialog.getByRole('status')).toContainText('2 chapters');
  await snap('export-dialog-done');
  const downloading = page.waitForEvent('download');
  await downloadButton.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('Two Chapters.mp3');
  const bytes = await readFile((await download.path())!);
  const { format, common } = await parseBuffer(bytes, { mimeType: 'audio/mpeg' }, { includeChapters: true });
  expect(format.chapters).toHaveLength(2);
  expect([common.title, common.artist]).toEqual(['Two Chapters', 'The Studio']);
});
