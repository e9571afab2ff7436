import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody, NewApiKey, SettingsUpdate, SettingsView } from '../../contract';
import type { SettingsService } from '../../settings/service';
import { ADMIN_ONLY } from '../plugins/auth';

/**
 * Routes of the settings panel; paths relative to TTS_ROOT (SETTINGS_PATH, API_KEY_PATH). Anyone
 * with the API key may read the settings; changing them or the key takes the admin token.
 */
export const settingsRoutes: FastifyPluginAsyncTypebox<{ settings: SettingsService }> = async (app, { settings }) => {
  app.get('/settings', {
    schema: {
      operationId: 'getSettings',
      tags: ['settings'],
      summary: 'The gateway settings, and which of them wait for a restart',
      security: [{ bearer: [] }, { admin: [] }],
      response: { 200: SettingsView },
    },
    handler: async () => settings.view(),
  });

  app.put('/settings', {
    schema: {
      operationId: 'putSettings',
      tags: ['settings'],
      summary: 'Save all settings but the bind address (admin token); limits apply at once, the rest at the next start',
      security: ADMIN_ONLY,
      body: SettingsUpdate,
      response: { 200: SettingsView, 400: ErrorBody, 403: ErrorBody },
    },
    handler: async (request) => settings.update(request.body),
  });

  app.post('/settings/api-key', {
    schema: {
      operationId: 'replaceApiKey',
      tags: ['settings'],
      summary: 'Replace the API key with a new random one (admin token); the old key stops working at once',
      security: ADMIN_ONLY,
      response: { 200: NewApiKey, 400: ErrorBody, 403: ErrorBody },
    },
    handler: async () => ({ api_key: await settings.regenerateApiKey() }),
  });
};
