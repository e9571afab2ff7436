import { expect, test } from './fixtures';

test('the draft survives a restart; counts and the inline/job hint follow the text', async ({ studio: page, snap }) => {
  const editor = page.getByRole('textbox', { name: 'Text to speak' });
  await editor.fill('Café 😀 naïve');
  // Code points, as the gateway counts them: the emoji is one character.
  await expect(page.getByTestId('char-count')).toContainText('12 characters · 2 words');
  await expect(page.getByTestId('delivery-hint')).toContainText('Plays at once');
  await editor.fill('x'.repeat(1001));
  await expect(page.getByTestId('delivery-hint')).toContainText('queued as a job');

  await editor.fill('A draft worth keeping.');
  await page.getByRole('slider', { name: 'Rate' }).fill('1.5');
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Text to speak' })).toHaveValue('A draft worth keeping.');
  await expect(page.getByRole('slider', { name: 'Rate' })).toHaveValue('1.5');
  await snap('editor-draft');
});

test('opens a .txt file, and takes a dropped .md file', async ({ studio: page, snap }) => {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Open file…' }).click();
  await (
    await chooser
  ).setFiles({ name: 'chapter.txt', mimeType: 'text/plain', buffer: Buffer.from('Chapter one. It was a dark and stormy night.') });
  await expect(page.getByRole('textbox', { name: 'Text to speak' })).toHaveValue('Chapter one. It was a dark and stormy night.');

  const transfer = await page.evaluateHandle(() => {
    const data = new DataTransfer();
    data.items.add(new File(['# Notes\n\nDropped text.'], 'notes.md', { type: 'text/markdown' }));
    return data;
  });
  await page.locator('.dropzone').dispatchEvent('drop', { dataTransfer: transfer });
  await expect(page.getByRole('textbox', { name: 'Text to speak' })).toHaveValue('# Notes\n\nDropped text.');
  await snap('editor-dropped-file');
});

test('themes: dark and light, chosen or from the system', async ({ studio: page, snap }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.getByRole('textbox', { name: 'Text to speak' }).fill('Night mode for late chapters.');
  await snap('theme-dark');
  await page.getByRole('tab', { name: 'Voices' }).click();
  await expect(page.locator('tbody tr').first()).toBeVisible();
  await snap('theme-dark-voices');
  await page.getByRole('tab', { name: 'Compare' }).click();
  await snap('theme-dark-compare');
  await page.getByRole('combobox', { name: 'Theme' }).selectOption('light');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
});
