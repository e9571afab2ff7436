import { api, expect, test } from './fixtures';
import { dock, expectTimeAdvances, playerReady } from './helpers';

test('unavailable engines say why and how to install them', async ({ studio: page, gateway, snap }) => {
  const { engines } = (await (await api(gateway, '/api/v1/tts/engines')).json()) as { engines: { name: string; available: boolean; reason?: string }[] };
  const missing = engines.filter((e) => !e.available);
  // On any one system some engine is missing: macOS speech and Windows SAPI exclude each other.
  expect(missing.length).toBeGreaterThan(0);
  await page.getByRole('tab', { name: 'Voices' }).click();
  await page.getByText(`Not installed (${missing.length})`).click();
  for (const engine of missing) {
    await expect(page.locator('.missing-engine').filter({ has: page.getByText(engine.name, { exact: true }) })).toContainText(engine.reason!);
  }
  await snap('voices-not-installed');
});

test('browses and filters voices, and keeps favourites', async ({ studio: page, snap }) => {
  await page.getByRole('tab', { name: 'Voices' }).click();
  const count = page.getByTestId('voice-count');
  const rows = page.locator('tbody tr');
  const engines = page.getByRole('navigation', { name: 'Engines' });
  await expect(engines.getByRole('button', { name: /eSpeak NG \(embedded\)/ })).toBeVisible();
  await expect.poll(async () => rows.count()).toBeGreaterThan(100);

  await page.getByRole('searchbox', { name: 'Search voices' }).fill('german');
  await expect(rows.first()).toContainText('German');
  const germanCount = await rows.count();
  expect(germanCount).toBeLessThan(10);
  await expect(count).toHaveText(`${germanCount} ${germanCount === 1 ? 'voice' : 'voices'}`);

  await page.getByRole('searchbox', { name: 'Search voices' }).fill('');
  await page.getByRole('combobox', { name: 'Language' }).selectOption('fr');
  await expect.poll(async () => rows.count()).toBeLessThan(10);
  for (const row of await rows.all()) await expect(row).toContainText('French');

  await engines.getByRole('button', { name: /eSpeak NG \(embedded\)/ }).click();
  const frFr = page.locator('tr[data-voice-id="espeak-ng:fr-fr"]');
  await frFr.getByRole('button', { name: /^Favourite/ }).click();
  await expect(frFr.getByRole('button', { name: /^Favourite/ })).toHaveAttribute('aria-pressed', 'true');

  await page.getByRole('combobox', { name: 'Language' }).selectOption('');
  await page.getByRole('checkbox', { name: /Favourites/ }).check();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-voice-id', 'espeak-ng:fr-fr');

  // Favourites persist across a reload, and lead the editor's voice picker.
  await page.reload();
  await page.getByRole('tab', { name: 'Voices' }).click();
  await page.getByRole('checkbox', { name: /Favourites/ }).check();
  await expect(rows).toHaveCount(1);
  await page.getByRole('tab', { name: 'Studio' }).click();
  await expect(page.getByRole('combobox', { name: 'Voice' }).locator('optgroup').first()).toHaveAttribute('label', '★ Favourites');
  await page.getByRole('tab', { name: 'Voices' }).click();
  await page.getByRole('checkbox', { name: /Favourites/ }).uncheck();
  await engines.getByRole('button', { name: /All engines/ }).click();
  await snap('voices-browse');
});

test('previews a voice: the player plays it', async ({ studio: page, snap }) => {
  await page.getByRole('tab', { name: 'Voices' }).click();
  await page.getByRole('searchbox', { name: 'Search voices' }).fill('en-gb');
  const row = page.locator('tr[data-voice-id="espeak-ng:en-gb"]');
  await row.getByRole('button', { name: /^Preview/ }).click();
  expect(await playerReady(page)).toBeGreaterThan(1);
  await expect(dock(page)).toContainText('Preview');
  await expectTimeAdvances(page);
  await expect(dock(page).getByRole('button', { name: 'Pause' })).toBeVisible();
  await snap('voices-preview');
});
