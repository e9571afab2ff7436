import { api, expect, test } from './fixtures';

test('loads the studio with the key from the link and removes it from the address bar', async ({ page, gateway, snap }) => {
  const consoleErrors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
  const missing: string[] = [];
  page.on('response', (response) => response.status() >= 400 && missing.push(`${response.status()} ${response.url()}`));
  await page.goto(gateway.studioUrl);
  await expect(page.getByRole('tab', { name: 'Studio', selected: true })).toBeVisible();
  await expect(page).not.toHaveURL(/key=/);
  expect(await page.evaluate(() => location.href)).not.toContain(gateway.apiKey);
  // The engines are loaded: the voice picker holds the embedded eSpeak NG voices.
  await expect(page.getByRole('combobox', { name: 'Voice' }).locator('option[value="espeak-ng:en-us"]')).toHaveCount(1);
  await expect(page.getByText('Live')).toBeVisible();

  // A reload in the same tab keeps the session's key.
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Studio', selected: true })).toBeVisible();

  // The tab has the app's icon, and loading asks for nothing that is not there (no /favicon.ico).
  const icon = await page.locator('link[rel="icon"]').evaluate((link: HTMLLinkElement) => link.href);
  const response = await page.request.get(icon);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('image/svg+xml');
  expect(await response.text()).toContain('<svg');
  await expect(page.getByText('Live')).toBeVisible();
  expect(missing).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await snap('connect-studio');
});

test("the studio's service worker authorizes the studio's own audio requests, never a navigation", async ({ page, gateway }) => {
  const queued = await api(gateway, '/api/v1/tts/synthesize', {
    method: 'POST',
    body: JSON.stringify({ text: 'Job audio.', mode: 'job' }),
  });
  const { job_id } = (await queued.json()) as { job_id: string };
  await expect
    .poll(async () => ((await (await api(gateway, `/api/v1/tts/jobs/${job_id}`)).json()) as { status: string }).status)
    .toBe('done');
  const audio = `${gateway.url}/api/v1/tts/jobs/${job_id}/audio`;

  await page.goto(gateway.studioUrl);
  await expect(page.getByRole('tab', { name: 'Studio', selected: true })).toBeVisible();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  // what the player's <audio> does: a request without the header, which the worker completes
  expect(await page.evaluate(async (url) => (await fetch(url, { mode: 'no-cors' })).status, audio)).toBe(200);

  // a tab opened on job audio (a link or redirect from any site) gets no key, with the studio open beside it
  const other = await page.context().newPage();
  const navigation = await other.goto(audio);
  expect(navigation!.status()).toBe(401);
  expect(await navigation!.json()).toMatchObject({ error: { code: 'unauthorized' } });
  await other.close();
});

test('a wrong key shows the key prompt, and the right key gets in', async ({ page, gateway, snap }) => {
  await page.goto(`${gateway.url}/#key=not-the-key`);
  await expect(page.getByRole('heading', { name: 'Connect to Orator' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('did not accept this API key');
  await expect(page).not.toHaveURL(/key=/);
  await snap('connect-wrong-key');

  await page.getByLabel('API key').fill(gateway.apiKey);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByRole('tab', { name: 'Studio', selected: true })).toBeVisible();
});

test('without a key the studio asks for one', async ({ page, gateway, snap }) => {
  await page.goto(`${gateway.url}/`);
  await expect(page.getByRole('heading', { name: 'Connect to Orator' })).toBeVisible();
  await expect(page.getByText('needs the API key')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Connect' })).toBeDisabled();
  await snap('connect-no-key');
});

test('an unreachable gateway is said in place, with a way to try again', async ({ page, gateway, snap }) => {
  let down = true;
  await page.route('**/api/v1/tts/engines**', (route) => (down ? route.abort('connectionrefused') : route.continue()));
  await page.goto(gateway.studioUrl);
  const banner = page.getByRole('alert').filter({ hasText: 'Cannot reach the Orator gateway' });
  await expect(banner).toBeVisible();
  await snap('connect-unreachable');
  down = false;
  await banner.getByRole('button', { name: 'Try again' }).click();
  await expect(banner).toBeHidden();
  await expect(page.getByRole('combobox', { name: 'Voice' }).locator('option[value="espeak-ng:en-us"]')).toHaveCount(1);
});
