import type { FastifyPluginAsync } from 'fastify';
import { API } from '../../contract';
import type { SettingsService } from '../../settings/service';
import { serve } from '../serve-route';

/** Routes of the settings panel: who may read and change them is the table's (contract/routes/settings.ts). */
export const settingsRoutes: FastifyPluginAsync<{ settings: SettingsService }> = async (app, { settings }) => {
  serve(app, API.getSettings, async () => settings.view());
  serve(app, API.putSettings, async (request) => settings.update(request.body));
  serve(app, API.replaceApiKey, async () => ({ api_key: await settings.regenerateApiKey() }));
};
