import AxeBuilder from '@axe-core/playwright';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { api, expect, test } from './fixtures';

const DOCS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs');
const MANUSCRIPT = `# The Short Book

## The Hills
The sun rose over the hills.

## The Market
Zorblat walked to the market.

## The Night
Night fell quietly.
`;

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

const chapterRows = (page: Page) => page.locator('.chapter-table tbody tr');

test('projects: a Markdown manuscript in three chapters, rendered, re-rendered after a lexicon entry, exported as M4B', async ({
  studio: page,
  gateway,
}) => {
  test.setTimeout(120_000);
  await page.getByRole('tab', { name: 'Projects' }).click();
  await page
    .getByLabel('New project from a file…')
    .setInputFiles({ name: 'short-book.md', mimeType: 'text/markdown', buffer: Buffer.from(MANUSCRIPT) });
  const view = page.locator('.project-view');
  await expect(view.getByRole('heading', { name: 'short-book' })).toBeVisible();
  await expect(chapterRows(page)).toHaveCount(3);
  await expect(chapterRows(page).nth(1)).toContainText('The Market');
  expect(await seriousViolations(page)).toEqual([]);

  await view.getByLabel('Author').fill('A. Writer');
  await view.getByRole('button', { name: 'Save settings' }).click();
  await expect(view.getByRole('status')).toHaveText('Settings saved.');

  // what the render will take on disk, said before it, and what the book takes in each format
  await expect(view.getByText(/^Up to [\d.]+ [KM]B of WAV on disk; [\d.]+ [MG]B free\.$/)).toBeVisible();
  await expect(view.getByRole('combobox', { name: 'Format' }).locator('option[value="mp3"]')).toHaveText(
    /^mp3: the book up to [\d.]+ [KM]B$/,
  );
  await view.getByRole('button', { name: 'Render 3 chapters' }).click();
  await expect(view.getByText('Rendering 3 chapters.')).toBeVisible();
  await expect(chapterRows(page).filter({ hasText: 'Done' })).toHaveCount(3, { timeout: 60_000 });
  await expect(view.getByRole('button', { name: 'Up to date' })).toBeDisabled();

  // an entry for a name found only in chapter 2
  await page.getByRole('tab', { name: 'Lexicon' }).click();
  const form = page.getByRole('form', { name: 'New lexicon entry' });
  await form.getByLabel('Word or phrase').fill('Zorblat');
  await form.getByLabel('Say it as').fill('Zed the Great');
  await form.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByRole('status')).toHaveText('Added "Zorblat".');
  await page.screenshot({ path: path.join(DOCS, 'lexicon-panel.png') });

  await page.getByRole('tab', { name: 'Projects' }).click();
  await page.getByRole('button', { name: /^short-book/ }).click();
  await expect(chapterRows(page).nth(1)).toContainText('changed');
  await view.getByRole('button', { name: 'Render 1 chapter' }).click();
  await expect(view.getByText('Rendering 1 chapter.')).toBeVisible();
  await expect(chapterRows(page).filter({ hasText: 'Done' })).toHaveCount(3, { timeout: 60_000 });
  await expect(view.getByRole('button', { name: 'Up to date' })).toBeDisabled();

  // the Studio's export options, the same component: the file's size is said before
  const options = view.getByRole('group', { name: 'Audiobook' });
  await expect(
    options.getByText(/^The file: up to [\d.]+ KB at 64 kb\/s, with captions \(WebVTT, SubRip\); [\d.]+ [MG]B free\.$/),
  ).toBeVisible();
  await options.getByRole('combobox', { name: 'True peak' }).selectOption('-2');
  await options.getByRole('spinbutton', { name: 'Room tone (ms)' }).fill('1000');
  await options.getByRole('combobox', { name: 'Audiobook format' }).selectOption('zip');
  await expect(options.getByRole('button', { name: 'Export ZIP' })).toBeVisible();
  await options.getByRole('combobox', { name: 'Audiobook format' }).selectOption('m4b');
  await options.getByRole('button', { name: 'Export M4B' }).click();
  const downloadButton = view.getByRole('button', { name: /^Download / });
  await expect(downloadButton).toBeVisible({ timeout: 60_000 });
  await expect(view.getByText('Exported: 3 chapters')).toBeVisible();
  const [captions] = await Promise.all([page.waitForEvent('download'), options.getByRole('button', { name: 'Captions (WebVTT)' }).click()]);
  expect(captions.suggestedFilename()).toBe('short-book.vtt');
  expect((await readFile((await captions.path())!, 'utf8')).startsWith('WEBVTT')).toBe(true);
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: path.join(DOCS, 'projects.png') });
  const [download] = await Promise.all([page.waitForEvent('download'), downloadButton.click()]);
  expect(download.suggestedFilename()).toMatch(/\.m4b$/);
  const book = await readFile((await download.path())!);
  expect(book.subarray(4, 8).toString('latin1')).toBe('ftyp');
  expect(book.length).toBeGreaterThan(10_000);

  const listed = (await (await api(gateway, '/api/v1/tts/projects')).json()) as { projects: { author: string; chapter_count: number }[] };
  expect(listed.projects).toMatchObject([{ author: 'A. Writer', chapter_count: 3 }]);
});
