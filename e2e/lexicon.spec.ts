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
