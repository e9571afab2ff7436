import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiError,
  EngineDetail,
  EngineList,
  EngineParams,
  ErrorBody,
  speaksLanguage,
  VoiceList,
  VoiceListQuery,
  type EngineSummary,
} from '../../contract';
import type { EngineRegistry } from '../../engines/registry';
import type { FleetEngines } from '../../jobs/redis/fleet-engines';

export interface EngineRouteOptions {
  registry: EngineRegistry;
  /** With worker hosts: their engines merged in, with the hosts serving each. */
  fleet?: FleetEngines | undefined;
}

export const engineRoutes: FastifyPluginAsyncTypebox<EngineRouteOptions> = async (app, { registry, fleet }) => {
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

  app.get('/engines', {
    schema: {
      operationId: 'listEngines',
      tags: ['engines'],
      summary: 'List the speech engines of this machine',
      response: { 200: EngineList },
    },
    handler: list,
  });

  app.get('/engines/:id', {
    schema: {
      operationId: 'getEngine',
      tags: ['engines'],
      summary: 'One engine with all its voices',
      params: EngineParams,
      response: { 200: EngineDetail, 404: ErrorBody },
    },
    handler: async (request) => detail(request.params.id),
  });

  app.get('/voices', {
    schema: {
      operationId: 'listVoices',
      tags: ['engines'],
      summary: 'Every engine’s voices in one list, filtered by language, engine, quality and availability',
      querystring: VoiceListQuery,
      response: { 200: VoiceList },
    },
    handler: async (request) => {
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
    },
  });

  app.post('/engines/refresh', {
    schema: {
      operationId: 'refreshEngines',
      tags: ['engines'],
      summary: 'Detect every engine again (after installing one, or adding voices or models); no body',
      response: { 200: EngineList },
    },
    handler: async () => {
      await registry.probeAll();
      return list();
    },
  });

  app.post('/engines/:id/refresh', {
    schema: {
      operationId: 'refreshEngine',
      tags: ['engines'],
      summary: 'Detect one engine again, e.g. to retry one marked unavailable; no body',
      params: EngineParams,
      response: { 200: EngineDetail, 404: ErrorBody },
    },
    handler: async (request) => {
      if (registry.summaries().some((e) => e.id === request.params.id)) await registry.refresh(request.params.id);
      return detail(request.params.id);
    },
  });
};
