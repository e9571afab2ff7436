import { Value } from 'typebox/value';
import type { OratorClient } from '../api/client';
import { API_KEY_PATH, ApiError, ErrorBody, NewApiKey, SETTINGS_PATH, SettingsView, type ErrorCode, type Settings } from '../api/contract';

/** Writes of the settings panel; reads go through OratorClient.settings(). */
async function send<T>(client: OratorClient, path: string, method: string, body: unknown, schema: typeof SettingsView | typeof NewApiKey): Promise<T> {
  const response = await fetch(client.url(path), {
    method,
    headers: { ...client.authHeaders, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    cache: 'no-store',
  });
  const data: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    if (Value.Check(ErrorBody, data)) throw new ApiError(data.error.code as ErrorCode, data.error.message);
    throw new Error(`The gateway answered ${response.status}.`);
  }
  if (!Value.Check(schema, data)) throw new Error('The gateway sent an unexpected answer.');
  return data as T;
}

export function saveSettings(client: OratorClient, settings: Settings): Promise<SettingsView> {
  return send<SettingsView>(client, SETTINGS_PATH, 'PUT', settings, SettingsView);
}

/** A new key; the old one stops working at once, so the caller reconnects with this one. */
export async function regenerateApiKey(client: OratorClient): Promise<string> {
  return (await send<NewApiKey>(client, API_KEY_PATH, 'POST', {}, NewApiKey)).api_key;
}
