import { TTS_ROOT } from '../paths';
import { NewApiKey, SettingsUpdate, SettingsView } from '../settings';
import { WhoAmI, WhoAmIQuery } from '../whoami';
import { routeGroup } from './route';

/** Anyone with the API key may read the settings; changing them or the key takes the admin token. */
export const settingsApi = routeGroup('settings', {
  getSettings: {
    method: 'GET',
    path: `${TTS_ROOT}/settings`,
    summary: 'The gateway settings, where each value comes from (default, saved, env, flag), and which wait for a restart',
    auth: 'key-or-admin',
    responses: { 200: SettingsView },
  },
  putSettings: {
    method: 'PUT',
    path: `${TTS_ROOT}/settings`,
    summary:
      'Save all settings but the bind address (admin token); limits apply at once, the rest at the next start; one a flag or environment variable set for this run cannot change (409)',
    auth: 'admin',
    body: SettingsUpdate,
    responses: { 200: SettingsView },
    errors: [400, 403, 409],
  },
  replaceApiKey: {
    method: 'POST',
    path: `${TTS_ROOT}/settings/api-key`,
    summary: 'Replace the API key with a new random one (admin token); the old key stops working at once',
    auth: 'admin',
    responses: { 200: NewApiKey },
    errors: [403, 409],
  },
});

/**
 * The one API route without a key: a client asks it first, with a nonce, and sends its key only to
 * a server whose proof matches.
 */
export const identityApi = routeGroup('identity', {
  whoami: {
    method: 'GET',
    path: `${TTS_ROOT}/whoami`,
    summary: 'Which server this is, and with a nonce a proof that it holds the API key; needs no key',
    auth: 'none',
    query: WhoAmIQuery,
    responses: { 200: WhoAmI },
  },
});

export const SETTINGS_PATH = settingsApi.getSettings.path;
export const API_KEY_PATH = settingsApi.replaceApiKey.path;
/** Answered without a key, so that a client can check whom it talks to before it sends the key. */
export const WHOAMI_PATH = identityApi.whoami.path;
