import { expect, test } from './fixtures';

/**
 * The desktop app only (the electron project; playwright.config.ts): what a browser page does not
 * have. The studio's own behaviour is covered in both projects by studio.spec.ts.
 */
test('opens the studio in a locked-down window, connected through the preload bridge', async ({ studio: page, gateway, snap }) => {
  await expect(page).toHaveURL('app://orator/index.html');

  const seen = await page.evaluate(() => {
    const w = window as unknown as { orator?: Record<string, unknown>; require?: unknown; process?: unknown };
    return { bridge: Object.keys(w.orator ?? {}).sort(), require: typeof w.require, process: typeof w.process };
  });
  expect(seen.bridge).toEqual(['apiKey', 'appVersion', 'copyToClipboard', 'gatewayUrl', 'openDataFolder']);
  expect(gateway.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(seen.require).toBe('undefined');
  expect(seen.process).toBe('undefined');

  // The CSP allows the gateway only; new windows are denied.
  expect(
    await page.evaluate(() =>
      fetch('https://example.com/').then(
        () => 'reached',
        () => 'blocked',
      ),
    ),
  ).toBe('blocked');
  expect(await page.evaluate(() => window.open('https://example.com/') === null)).toBe(true);
  // The key is added by main to the player's job-audio requests only, never to other routes.
  expect(await page.evaluate((url) => fetch(`${url}/api/v1/tts/jobs`).then((r) => r.status), gateway.url)).toBe(401);

  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByRole('button', { name: 'Open data folder' })).toBeVisible();
  await snap('studio-settings');
});
