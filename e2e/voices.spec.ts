import { api, expect, test } from './fixtures';
import { addCompareVoice, dock, expectTimeAdvances, playerReady } from './helpers';

test('unavailable engines say why and how to install them', async ({ studio: page, gateway, snap }) => {
  const { engines } = (await (await api(gateway, '/api/v1/tts/engines')).json()) as {
    engines: { name: string; available: boolean; reason?: string }[];
  };
  const missing = engines.filter((e) => !e.available);
  // On any one system some engine is missing: macOS speech and Windows SAPI exclude each other.
  expect(missing.length).toBeGreaterThan(0);
  await page.getByRole('tab', { name: 'Voices' }).click();
  await page.getByText(`Not installed (${missing.length})`).click();
  for (const engine of missing) {
    await expect(page.locator('.missing-engine').filter({ has: page.getByText(engine.name, { exact: true }) })).toContainText(
      engine.reason!,
    );
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

test('voices are listed by name, languages named one way, and equal names on two engines told apart', async ({
  studio: page,
  gateway,
  snap,
}) => {
  await page.getByRole('tab', { name: 'Voices' }).click();
  const rows = page.locator('tbody tr');
  await expect.poll(async () => rows.count()).toBeGreaterThan(100);

  // Sorted by the name shown (then engine), not by id: Bengali before Bulgarian.
  const names = await rows.locator('.voice-name').allTextContents();
  const unsorted = await page.evaluate((list) => {
    const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
    return list.findIndex((name, i) => i > 0 && collator.compare(list[i - 1]!, name) > 0);
  }, names);
  expect(unsorted, `"${names[unsorted - 1]}" before "${names[unsorted]}"`).toBe(-1);
  expect(names.indexOf('Bengali')).toBeLessThan(names.indexOf('Bulgarian'));

  // Every language cell is the browser's name for the tag with the tag beside it, or the tag alone.
  const cells = await rows.evaluateAll((trs) =>
    trs.map((tr) => {
      const cell = tr.querySelector('td.voice-language')!;
      return { text: cell.textContent!.trim(), tag: cell.querySelector('.mono')?.textContent?.trim() ?? null };
    }),
  );
  const languageOf = async (id: string) => page.locator(`tr[data-voice-id="${id}"] td.voice-language`).textContent();
  const bengali = await page.evaluate(() => new Intl.DisplayNames(undefined, { type: 'language' }).of('bn'));
  expect(await languageOf('espeak-ng:bn')).toBe(`${bengali} bn`);
  for (const { text, tag } of cells) if (tag) expect(text.endsWith(` ${tag}`)).toBe(true);
  await snap('voices-sorted');

  // Voices that share a name on two engines (SVOX Pico and pico2wave, Flite and flite) differ once chosen.
  const { engines } = (await (await api(gateway, '/api/v1/tts/engines')).json()) as {
    engines: { id: string; name: string; available: boolean }[];
  };
  const byName = new Map<string, { id: string; engine: string }[]>();
  for (const engine of engines.filter((e) => e.available)) {
    const { voices } = (await (await api(gateway, `/api/v1/tts/engines/${engine.id}`)).json()) as {
      voices: { id: string; name: string }[];
    };
    for (const v of voices) byName.set(v.name, [...(byName.get(v.name) ?? []), { id: v.id, engine: engine.name }]);
  }
  const twins = [...byName.values()].find((list) => list.length > 1 && !list[0]!.id.startsWith('espeak-ng'));
  // the embedded Flite and the system flite (installed by .ci/run, like every engine the suite needs) always do
  expect(twins, 'two installed engines sharing a voice name').toBeTruthy();
  const [a, b] = twins!;
  await page.getByRole('tab', { name: 'Studio' }).click();
  const picker = page.getByRole('combobox', { name: 'Voice' });
  const shown = () => picker.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]!.textContent);
  await picker.selectOption(a!.id);
  const first = await shown();
  await picker.selectOption(b!.id);
  const second = await shown();
  expect(first).toContain(a!.engine);
  expect(second).toContain(b!.engine);
  expect(first).not.toBe(second);

  await page.getByRole('tab', { name: 'Compare' }).click();
  await addCompareVoice(page, a!.id);
  await addCompareVoice(page, b!.id);
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  const takes = page.getByRole('list', { name: 'Takes' }).getByRole('listitem');
  await expect(takes.nth(0).locator('.take-title strong')).toContainText(a!.engine);
  await expect(takes.nth(1).locator('.take-title strong')).toContainText(b!.engine);
  for (const take of await takes.all()) await expect(take).toHaveAttribute('data-state', 'ready', { timeout: 120_000 });
  await snap('compare-same-name');
});
