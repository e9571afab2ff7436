import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARCHIVE_ID, PIPER_ID, pointAtCatalog, startCatalogServer, type CatalogServer } from '../electron/testing/catalog-server';
import { api, expect, test } from './fixtures';
import { dock, playerReady, seriousViolations } from './helpers';

// The voice library as a person uses it, against a catalog server on loopback that serves the real
// formats (a Piper mirror and a sherpa-onnx release, electron/testing/catalog-server.ts) with the
// generated test voice: browse, read the licence, accept it, install, try, remove.

const DOCS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs');
const VOICE_ID = `sherpa-onnx:${PIPER_ID}`;
let server: CatalogServer;

test.beforeAll(async () => {
  server = await startCatalogServer();
});
test.afterAll(async ({ gateway }) => {
  // the gateway serves the other specs too: back to the catalog Orator ships
  expect((await pointAtCatalog(gateway, '')).status).toBe(200);
  await server.close();
});

test('voice library: a mirror set in Settings, a licence accepted, an install with progress, tried, then removed', async ({
  studio: page,
  gateway,
}) => {
  test.setTimeout(180_000);
  // Settings: the admin token pasted in, the mirror's catalog as voice_catalog_url
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByLabel('Admin token').fill(gateway.adminToken);
  await settings.getByRole('button', { name: 'Unlock' }).click();
  await settings.getByLabel('Voice catalog URL').fill(server.catalogUrl);
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await expect(settings.getByText(/^Saved\./)).toBeVisible();
  await page.keyboard.press('Escape');

  // the library, unlocked, reads the mirror's catalog
  await page.getByRole('tab', { name: 'Voice library' }).click();
  const panel = page.getByRole('tabpanel', { name: 'Voice library' });
  await panel.getByLabel('Admin token').fill(gateway.adminToken);
  await panel.getByRole('button', { name: 'Unlock' }).click();
  await panel.getByRole('button', { name: 'Refresh catalog' }).click();
  await expect(panel.getByRole('status')).toHaveText('6 of 6 voices');
  await panel.getByRole('searchbox', { name: 'Search the voice library' }).fill('tiny');
  await expect(panel.getByRole('status')).toHaveText('2 of 6 voices');
  await panel.getByRole('combobox', { name: 'Quality' }).selectOption('medium');
  await expect(panel.getByRole('status')).toHaveText('1 of 6 voices');
  await panel.getByRole('combobox', { name: 'Quality' }).selectOption('');

  // the licence, before anything is downloaded: a known one is named, an unknown one asks first
  const archive = panel.locator(`li[data-voice="${ARCHIVE_ID}"]`);
  await expect(archive.getByRole('link', { name: 'Apache-2.0' })).toBeVisible();
  const row = panel.locator(`li[data-voice="${PIPER_ID}"]`);
  await expect(row).toContainText('en-US · medium · 4 KB');
  await expect(row.getByRole('link', { name: 'licence: see the model card' })).toHaveAttribute(
    'href',
    `${server.url}/piper/main/en/en_US/tiny/medium/MODEL_CARD`,
  );
  // the voice's .onnx.json comes 250 bytes every 250 ms: an install of a few seconds, to be watched
  server.misbehave = { trickle: { suffix: '.onnx.json', everyMs: 250, bytes: 250 } };
  server.served.clear();
  await row.getByRole('button', { name: 'Install' }).click();
  const licence = row.getByRole('group', { name: /^Licence of / });
  await expect(licence).toContainText('This voice’s licence is not known to Orator: it may limit what the audio you make with it');
  expect(server.served.size).toBe(0);
  await page.screenshot({ path: path.join(DOCS, 'voice-library-licence.png') });
  expect(await seriousViolations(page)).toEqual([]);
  await licence.getByRole('button', { name: 'Accept and install' }).click();

  const bar = row.getByRole('progressbar', { name: /^Installing / });
  await expect(bar).toBeVisible();
  await expect.poll(async () => Number(await bar.getAttribute('value'))).toBeGreaterThan(1184);
  await expect(row.getByText(/^\d KB of 4 KB$/)).toBeVisible();
  await page.screenshot({ path: path.join(DOCS, 'voice-library-installing.png') });
  await expect(row.getByRole('button', { name: 'Try it' })).toBeVisible({ timeout: 60_000 });
  server.misbehave = {};

  // Try it speaks a sample through the player: a WAV answer with a duration
  const [preview] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/v1/tts/preview') && r.request().method() === 'POST'),
    row.getByRole('button', { name: 'Try it' }).click(),
  ]);
  expect(preview.status()).toBe(200);
  const headers = await preview.allHeaders();
  expect(headers['content-type']).toMatch(/^audio\/wav/);
  expect(headers['x-orator-voice']).toBe(VOICE_ID);
  expect(Number(headers['x-orator-duration'])).toBeGreaterThan(0.5);
  expect(await playerReady(page)).toBeGreaterThan(0.5);
  await expect(dock(page)).toContainText('Preview');
  await page.screenshot({ path: path.join(DOCS, 'voice-library.png') });
  expect(await seriousViolations(page)).toEqual([]);

  // it is a voice of the studio now, without a restart
  await page.getByRole('tab', { name: 'Voices' }).click();
  await page.getByRole('searchbox', { name: 'Search voices' }).fill('tiny');
  await expect(page.locator(`tr[data-voice-id="${VOICE_ID}"]`)).toBeVisible();

  // removed: the row offers Install again, and the voice is gone from the studio and the gateway
  await page.getByRole('tab', { name: 'Voice library' }).click();
  await row.getByRole('button', { name: 'Remove' }).click();
  await expect(row.getByRole('button', { name: 'Install' })).toBeVisible();
  await expect(row).toHaveAttribute('data-state', 'available');
  await page.getByRole('tab', { name: 'Voices' }).click();
  await expect(page.locator(`tr[data-voice-id="${VOICE_ID}"]`)).toHaveCount(0);
  const engine = (await (await api(gateway, '/api/v1/tts/engines/sherpa-onnx')).json()) as { voices?: { id: string }[] };
  expect((engine.voices ?? []).map((v) => v.id)).not.toContain(VOICE_ID);
});
