import { api, expect, test } from './fixtures';
import { dock, playerReady } from './helpers';

test('lexicon: an entry added in the panel is heard, kept by the gateway, and deleted', async ({ studio: page, gateway, snap }) => {
  await page.getByRole('tab', { name: 'Lexicon' }).click();
  const form = page.getByRole('form', { name: 'New lexicon entry' });
  await form.getByLabel('Word or phrase').fill('Zog');
  await form.getByLabel('Say it as').fill('the honourable and most distinguished Zog of Albania');
  await form.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByRole('status')).toHaveText('Added "Zog".');

  const row = page.locator('.lexicon-table tbody tr').filter({ hasText: 'Zog' });
  await expect(row).toContainText('the honourable and most distinguished Zog of Albania');
  const saved = (await (await api(gateway, '/api/v1/tts/lexicon')).json()) as { entries: { grapheme: string; language: string }[] };
  expect(saved.entries).toMatchObject([{ grapheme: 'Zog', language: 'en' }]);

  // "Zog" alone is under half a second; the alias is several seconds
  await row.getByRole('button', { name: 'Hear it' }).click();
  expect(await playerReady(page)).toBeGreaterThan(2);
  await expect(dock(page)).toContainText('Lexicon · Zog');
  await snap('lexicon');

  await row.getByRole('button', { name: 'Delete Zog' }).click();
  await expect(page.getByText('No entries yet.')).toBeVisible();
  expect(((await (await api(gateway, '/api/v1/tts/lexicon')).json()) as { entries: unknown[] }).entries).toEqual([]);
});

test('lexicon: opened from a project, "Hear it" speaks with the project’s voice', async ({ studio: page, gateway }) => {
  // a project voiced otherwise than the studio (whose voice is the default, American eSpeak)
  const created = await api(gateway, '/api/v1/tts/projects', {
    method: 'POST',
    body: JSON.stringify({ manuscript: { name: 'tide.md', text: '# One\n\nIseult walked.' }, voice: 'espeak-ng:en-gb' }),
  });
  expect(created.status).toBe(201);
  await page.getByRole('tab', { name: 'Projects' }).click();
  await page.getByRole('button', { name: /^tide/ }).click();
  await page.getByRole('button', { name: 'Pronunciations…' }).click();

  const hearWith = page.getByLabel('Hear it with');
  await expect(hearWith).toHaveValue('espeak-ng:en-gb');
  await expect(page.getByText('the voice of the project “tide”')).toBeVisible();
  const form = page.getByRole('form', { name: 'New lexicon entry' });
  await form.getByLabel('Word or phrase').fill('Iseult');
  await form.getByLabel('Say it as').fill('Ee zolda');
  await form.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByRole('status')).toHaveText('Added "Iseult".');

  const preview = page.waitForRequest((request) => request.url().endsWith('/api/v1/tts/preview'));
  await page.locator('.lexicon-table tbody tr').filter({ hasText: 'Iseult' }).getByRole('button', { name: 'Hear it' }).click();
  expect(JSON.parse((await preview).postData()!)).toMatchObject({ text: 'Iseult', voice: 'espeak-ng:en-gb' });
  expect(await playerReady(page)).toBeGreaterThan(0.3);

  // opened from its tab: the studio's voice again
  await page.getByRole('tab', { name: 'Studio' }).click();
  await page.getByRole('tab', { name: 'Lexicon' }).click();
  await expect(hearWith).toHaveValue('espeak-ng:en-us');
  await expect(page.getByText('the voice of the project “tide”')).toHaveCount(0);
});
