import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SettingsView } from '../electron/contract';
import { api, expect, test } from './fixtures';

/**
 * The web studio's settings against `node dist/serve.mjs --port 0`: the port given by flag is
 * locked, saying so; the rest saves with the admin token, and GET /settings names each source.
 */
test('locks what a flag set, and saves the rest with the admin token', async ({ studio: page, gateway, snap }) => {
  const sources = async () => ((await (await api(gateway, '/api/v1/tts/settings')).json()) as SettingsView).sources;
  expect((await sources()).port).toEqual({ source: 'flag', set_by: '--port', editable: false });

  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByLabel('Admin token').fill((await readFile(path.join(gateway.dataDir, 'admin-token'), 'utf8')).trim());
  await dialog.getByRole('button', { name: 'Unlock' }).click();

  const port = dialog.getByRole('spinbutton', { name: /^Port/ });
  await expect(port).toBeDisabled();
  await expect(port).toHaveAccessibleDescription('Set by --port, cannot be changed here.');
  await expect(dialog.getByRole('spinbutton', { name: /^Inline threshold/ })).toBeEnabled();

  // a setting that matters to the desktop app only, so the other specs on this gateway see no change
  const tray = dialog.getByRole('checkbox', { name: /Closing the window keeps the gateway running/ });
  await tray.uncheck();
  await dialog.getByRole('button', { name: 'Save settings' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Saved.');
  expect((await sources()).close_to_tray).toEqual({ source: 'saved', editable: true });
  await port.scrollIntoViewIfNeeded();
  await snap('settings-locked');

  await tray.check();
  await dialog.getByRole('button', { name: 'Save settings' }).click();
  await expect.poll(async () => (await sources()).close_to_tray.source).toBe('default');
});
