import type { FastifyPluginAsync } from 'fastify';
import { API, ApiError, speaksLanguage, type EngineSummary } from '../../contract';
import type { EngineRegistry } from '../../engines/registry';
import type { FleetEngines } from '../../jobs/redis/fleet-engines';
import { serve } from '../serve-route';

export interface EngineRouteOptions {
  registry: EngineRegistry;
  /** With worker hosts: their engines merged in, with the hosts serving each. */
  fleet?: FleetEngines | undefined;
}

export const engineRoutes: FastifyPluginAsync<EngineRouteOptions> = async (app, { registry, fleet }) => {
  const list = async (): Promise<{ engines: EngineSummary[] }> => ({
    engines: fleet ? await fleet.summaries(registry.summaries()) : registry.summaries(),
  });
  const detail = async (id: string) => {
    if (!fleet) return registry.detail(id);
    const local = registry.summaries().some((e) => e.id === id) ? registry.detail(id) : undefined;
    const merged = await fleet.detail(id, local);
    if (!merged) throw new ApiError('engine_not_found', `Unknown engine "${id}".`);
    return merged;
  };

  serve(app, API.listEngines, list);

  serve(app, API.getEngine, async (request) => detail(request.params.id));

  serve(app, API.listVoices, async (request) => {
    const { language, engine, quality, available } = request.query;
    const { engines } = await list();
    const details = await Promise.all(engines.filter((e) => engine === undefined || e.id === engine).map((e) => detail(e.id)));
    const here = new Set(registry.summaries().flatMap((e) => (e.available ? registry.detail(e.id).voices.map((v) => v.id) : [])));
    const voices = details.flatMap((d) => d.voices.map((voice) => ({ ...voice, engine: d.id, available: here.has(voice.id) })));
    return {
      voices: voices.filter(
        (v) =>
          (language === undefined || speaksLanguage(v.language, language)) &&
          (quality === undefined || v.quality === quality) &&
          (available === undefined || v.available === available),
      ),
    };
  });

  serve(app, API.refreshEngines, async () => {
    await registry.probeAll();
    return list();
  });

  serve(app, API.refreshEngine, async (request) => {
    if (registry.summaries().some((e) => e.id === request.params.id)) await registry.refresh(request.params.id);
    return detail(request.params.id);
  });
};
