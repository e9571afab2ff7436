import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody, NewApiKey, Settings, SettingsView } from '../../contract';
import type { SettingsService } from '../../settings/service';

/** Routes of the settings panel; paths relative to TTS_ROOT (SETTINGS_PATH, API_KEY_PATH). */
export const settingsRoutes: FastifyPluginAsyncTypebox<{ settings: SettingsService }> = async (app, { settings }) => {
  app.get('/settings', {
    schema: { tags: ['settings'], summary: 'The gateway settings, and which of them wait for a restart', response: { 200: SettingsView } },
    handler: async () => settings.view(),
  });

  app.put('/settings', {
    schema: {
      tags: ['settings'],
      summary: 'Save all settings; inline threshold and maximum text length apply at once, the rest at the next start',
      body: Settings,
      response: { 200: SettingsView, 400: ErrorBody },
    },
    handler: async (request) => settings.update(request.body),
  });

  app.post('/settings/api-key', {
    schema: {
      tags: ['settings'],
      summary: 'Replace the API key with a new random one; the old key stops working at once',
      response: { 200: NewApiKey, 400: ErrorBody },
    },
    handler: async () => ({ api_key: await settings.regenerateApiKey() }),
  });
};
