import type { Page } from '@playwright/test';
import { api, expect, test, type Gateway } from './fixtures';
import { addCompareVoice, dock, playerReady, seriousViolations } from './helpers';

async function finishedJob(gateway: Gateway, text: string): Promise<string> {
  const response = await api(gateway, '/api/v1/tts/synthesize', { method: 'POST', body: JSON.stringify({ text, mode: 'job' }) });
  const { job_id } = (await response.json()) as { job_id: string };
  await expect
    .poll(async () => ((await (await api(gateway, `/api/v1/tts/jobs/${job_id}`)).json()) as { status: string }).status, { timeout: 60_000 })
    .toBe('done');
  return job_id;
}

for (const theme of ['light', 'dark'] as const) {
  test(`axe: no serious or critical violations on any tab or dialog, ${theme}`, async ({ studio: page, gateway, snap }) => {
    test.setTimeout(300_000);
    // the dark theme changes colours only: its run checks the rules about colours (a third of the time)
    const check = (on: Page) => seriousViolations(on, theme === 'light' ? 'all' : 'colours');
    const id = await finishedJob(gateway, 'One job to list. It has two sentences.');
    await page.getByRole('combobox', { name: 'Theme' }).selectOption(theme);
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    const found: Record<string, string[]> = {};

    for (const tab of ['Studio', 'Voices', 'Voice library', 'Compare', 'Lexicon']) {
      await page.getByRole('tab', { name: tab }).click();
      await expect(page.getByRole('tabpanel', { name: tab })).toBeVisible();
      await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
      if (tab === 'Voices') {
        // the rows of a few voices, of several engines: axe over the whole table (hundreds of rows,
        // all alike) took 17 s of this spec's minute (voices.spec.ts browses all of them)
        await page.getByRole('searchbox', { name: 'Search voices' }).fill('en-gb');
        await expect(page.getByRole('tabpanel', { name: tab }).getByRole('button').first()).toBeVisible();
      }
      if (tab === 'Voice library') {
        // a few rows of the shipped catalog, all alike: this spec runs for minutes on a busy machine already
        // (voice-library.spec.ts checks the licence and an installed voice)
        await page.getByRole('searchbox', { name: 'Search the voice library' }).fill('de-DE');
        await expect(page.getByRole('tabpanel', { name: tab }).locator('li.library-voice').first()).toBeVisible();
      }
      found[tab] = await check(page);
    }

    // Compare with takes: ratings, notes, loudness, blind bar, export
    await page.getByRole('tab', { name: 'Compare' }).click();
    for (const voice of ['espeak-ng:en-us', 'espeak-ng:en-gb']) await addCompareVoice(page, voice);
    await page.getByRole('checkbox', { name: 'Blind' }).check();
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    const takes = page.getByRole('list', { name: 'Takes' }).getByRole('listitem');
    await expect(takes).toHaveCount(2);
    for (const take of await takes.all()) await expect(take).toHaveAttribute('data-played-url', /^blob:/, { timeout: 120_000 });
    await takes.first().locator('label', { hasText: '3 stars' }).click();
    found['compare with takes'] = await check(page);
    await page.getByRole('button', { name: 'Pairwise' }).click();
    found['compare pairwise'] = await check(page);
    await page.getByRole('button', { name: 'Shortcuts (?)' }).click();
    found['compare shortcuts'] = await check(page);
    await page.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'Settings' }).click();
    await expect(page.getByRole('dialog', { name: 'Settings' })).toBeVisible();
    found['settings dialog'] = await check(page);
    await page.keyboard.press('Escape');

    await page.getByRole('tab', { name: 'Studio' }).click();
    const row = page.locator(`li.job[data-job-id="${id}"]`);
    await row.getByRole('button', { name: /^Play job/ }).click();
    await playerReady(page);
    await expect(dock(page).getByRole('group', { name: /^Read along/ })).toBeVisible();
    found['player and read-along'] = await check(page);

    await row.getByRole('button', { name: /^Delete job/ }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    found['delete dialog'] = await check(page);
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /^Delete/ })
      .click();
    await expect(page.getByRole('status').getByRole('button', { name: 'Undo' })).toBeVisible();
    found['undo toast'] = await check(page);
    await snap(`axe-${theme}`);

    // The key prompt: a tab opened with a wrong key
    const prompt = await page.context().newPage();
    await prompt.emulateMedia({ colorScheme: theme });
    await prompt.goto(`${gateway.url}/#key=not-the-key`);
    await expect(prompt.getByRole('alert')).toContainText('did not accept this API key');
    found['key prompt'] = await check(prompt);
    await prompt.close();

    expect(found).toEqual({
      Studio: [],
      Voices: [],
      'Voice library': [],
      Compare: [],
      Lexicon: [],
      'compare with takes': [],
      'compare pairwise': [],
      'compare shortcuts': [],
      'settings dialog': [],
      'player and read-along': [],
      'delete dialog': [],
      'undo toast': [],
      'key prompt': [],
    });
  });
}
