import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page, Request } from '@playwright/test';
import { api, expect, test } from './fixtures';
import { distinctSentences } from '../electron/testing/book';
import { dock, longText, playerReady, seriousViolations } from './helpers';

const DOCS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs');
const MANUSCRIPT = `## The Hills
The sun rose over the hills.

## The Market
Zorblat walked to the market.

## The Night
Night fell quietly.
`;

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
  await expect(view.getByRole('note', { name: 'Import report' })).toContainText('Imported: 3 chapters');
  expect(await seriousViolations(page)).toEqual([]);

  await view.getByLabel('Author').fill('A. Writer');
  await view.getByRole('button', { name: 'Save settings' }).click();
  await expect(view.getByRole('status')).toHaveText('Settings saved.');

  // what the render will take on disk, said before it, and what the book takes in each format
  await expect(view.getByText(/^Up to [\d.]+ [KM]B of WAV on disk; [\d.]+ [MG]B free\.$/)).toBeVisible();
  await expect(view.getByRole('combobox', { name: /^Format/ }).locator('option[value="mp3"]')).toHaveText(
    /^mp3: the book up to [\d.]+ [KM]B$/,
  );
  // and what it will synthesize: each chapter's title and its sentence
  await expect(view.getByTestId('render-plan')).toHaveText(/^To synthesize: 6 sentences in 3 chapters(, about \d+ s)?$/);
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
  // the one sentence that holds the name, at the pace the engine spoke the others
  await expect(view.getByTestId('render-plan')).toHaveText(/^To synthesize: 1 sentence in 1 chapter, about \d+ s$/);
  // heard before it renders, as the render will say it
  await view.getByText('Listen to them').click();
  await view.getByRole('button', { name: 'Listen to “Zorblat walked to the market.”' }).click();
  expect(await playerReady(page)).toBeGreaterThan(1);
  await expect(dock(page)).toContainText('Changed sentence · Zorblat walked to the market.');
  await view.getByRole('button', { name: 'Render 1 chapter' }).click();
  await expect(view.getByText('Rendering 1 chapter.')).toBeVisible();
  await expect(chapterRows(page).filter({ hasText: 'Done' })).toHaveCount(3, { timeout: 60_000 });
  await expect(view.getByRole('button', { name: 'Up to date' })).toBeDisabled();

  // the Studio's export options, the same component: the file's size is said before
  const options = view.getByRole('group', { name: 'Audiobook' });
  await expect(
    options.getByText(/^The file: up to [\d.]+ KB at 96 kb\/s, with captions \(WebVTT, SubRip\); [\d.]+ [MG]B free\.$/),
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
  // other specs' projects are listed too (the gateway is shared)
  expect(listed.projects).toContainEqual(expect.objectContaining({ title: 'short-book', author: 'A. Writer', chapter_count: 3 }));
});

/**
 * A book of three chapters, each long enough to pause while it renders (units of sentences go fast); no
 * sentence said twice, or the render cache would synthesize each once and finish at once.
 */
const BOOK = distinctSentences(
  ['The Harbour', 'The Lighthouse', 'The Storm'].map((title) => `## ${title}\n\n${longText(4_000)}\n`).join('\n'),
);

test('projects: a book renders as a narrator listens, pauses, resumes, cancels and continues; a sentence edit stays with its chapter', async ({
  studio: page,
}) => {
  test.setTimeout(240_000);
  await page.getByRole('tab', { name: 'Projects' }).click();
  await page
    .getByLabel('New project from a file…')
    .setInputFiles({ name: 'book.md', mimeType: 'text/markdown', buffer: Buffer.from(BOOK) });
  const view = page.locator('.project-view');
  await expect(chapterRows(page)).toHaveCount(3);

  // and what it will synthesize (the first spec counts a small book's sentences exactly)
  await expect(view.getByTestId('render-plan')).toHaveText(/^To synthesize: \d+ sentences in 3 chapters(, about \d+ (s|min))?$/);
  await view.getByRole('button', { name: 'Render 3 chapters' }).click();
  // while chapters render the button says so, never "Up to date", beside the book's progress
  const main = view.locator('.project-actions button.primary');
  await expect(main).toHaveText(/^Rendering… 0 of 3 chapters done/);
  // followed by its light progress each second, not by the whole project with its chapters' texts
  const reads = { whole: 0, progress: 0 };
  const countReads = (request: Request) => {
    if (request.method() !== 'GET') return;
    if (/\/api\/v1\/tts\/projects\/[^/?]+$/.test(request.url())) reads.whole++;
    if (request.url().endsWith('/progress')) reads.progress++;
  };
  page.on('request', countReads);
  await expect(main).toBeDisabled();
  await expect(view.getByLabel('Project progress')).toBeVisible();
  // some of the first chapter rendered, none of the others (reading order)
  await expect(view.getByTestId('project-progress')).toHaveText(/^[1-9]\d*%/, { timeout: 60_000 });
  // and once a few chunks are measured, the time left of the whole book
  await expect(view.getByTestId('project-progress')).toHaveText(/^\d+% · (under a minute|about .+) left$/, { timeout: 60_000 });
  page.off('request', countReads);
  expect(reads.whole).toBe(0);
  expect(reads.progress).toBeGreaterThan(0);

  await view.getByRole('button', { name: 'Pause' }).click();
  await expect(view.getByRole('status')).toHaveText('Paused: what is rendered is kept.');
  await expect(main).toHaveText('Resume');
  await expect(chapterRows(page).filter({ hasText: 'Paused' })).not.toHaveCount(0);
  await page.screenshot({ path: path.join(DOCS, 'project-render.png') });
  await main.click();
  await expect(main).toHaveText(/^Rendering…/);

  await view.getByRole('button', { name: 'Cancel render' }).click();
  await expect(view.getByRole('status')).toHaveText(/^Cancelled: finished chunks are kept/);
  // a cancelled chapter is no failure and no change: it continues
  await expect(view.getByText('Failed')).toHaveCount(0);
  await expect(view.getByText('changed')).toHaveCount(0);
  const cancelled = await chapterRows(page).filter({ hasText: 'Cancelled' }).count();
  expect(cancelled).toBeGreaterThan(0);
  await expect(main).toHaveText(new RegExp(`^(Continue|Render) ${cancelled === 1 ? '1 chapter' : `\\d chapters`}`));
  await main.click();
  await expect(view.getByRole('status')).toHaveText(/continue where it stopped|continues where it stopped/);
  await expect(chapterRows(page).filter({ hasText: 'Done' })).toHaveCount(3, { timeout: 120_000 });
  await expect(main).toHaveText('Up to date');

  // a sentence of chapter 2 edited in the player: the player goes on from it, the chapter keeps it
  await view.getByRole('button', { name: 'Play The Lighthouse' }).click();
  await playerReady(page);
  const readAlong = dock(page).getByRole('group', { name: /^Read along/ });
  const sentence = readAlong.getByRole('button').nth(6);
  const start = Number(await sentence.getAttribute('data-start'));
  expect(start).toBeGreaterThan(5);
  await sentence.click();
  await dock(page).getByRole('button', { name: 'Edit sentence' }).click();
  const field = dock(page).getByRole('textbox', { name: 'New text of sentence 7' });
  const original = await field.inputValue();
  const edited = 'The keeper wrote one careful line in the log, then slept until noon.';
  await field.fill(edited);
  await dock(page).getByRole('button', { name: 'Re-render' }).click();
  await expect(readAlong.getByRole('button').nth(6)).toHaveText(edited, { timeout: 30_000 });
  await playerReady(page);
  // it goes on from the sentence, not from 0:00
  await expect.poll(async () => Number(await dock(page).getAttribute('data-time')), { timeout: 5_000 }).toBeGreaterThan(0.05);
  expect(Number(await dock(page).getAttribute('data-time'))).toBeGreaterThanOrEqual(start - 0.1);

  const edits = view.getByRole('region', { name: 'Sentence edits' });
  await expect(edits).toContainText(original);
  await expect(edits).toContainText(edited);
  await expect(chapterRows(page).nth(1)).toContainText('edited');
  await expect(main).toHaveText('Up to date');
  expect(await seriousViolations(page)).toEqual([]);
});
