import { API } from '../api/contract';
import type { OratorClient } from '../api/client';
import type { SettingsUpdate, SettingsView } from '../api/contract';
import type { OratorBridge } from '../../../electron/shell/bridge';

/** What changes settings and the key: the desktop's main process, or the gateway with the admin token. */
export interface SettingsWriter {
  save(update: SettingsUpdate): Promise<SettingsView>;
  regenerateApiKey(): Promise<string>;
}

/**
 * In the desktop app the main process changes settings (asking the person natively first); in a
 * browser the page needs the admin token, typed in and kept only in this page's memory. Without
 * either, settings are read-only: the API key alone cannot change them.
 */
export function settingsWriter(client: OratorClient, bridge: OratorBridge | null, adminToken: string | null): SettingsWriter | null {
  if (bridge) return { save: (update) => bridge.saveSettings(update), regenerateApiKey: () => bridge.regenerateApiKey() };
  if (!adminToken) return null;
  return {
    save: (update) => client.call(API.putSettings, { body: update, credential: adminToken }),
    regenerateApiKey: async () => (await client.call(API.replaceApiKey, { credential: adminToken })).api_key,
  };
}
