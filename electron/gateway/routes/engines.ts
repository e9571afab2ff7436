import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EngineDetail, EngineList, EngineParams, ErrorBody } from '../../contract';
import type { EngineRegistry } from '../../engines/registry';

export const engineRoutes: FastifyPluginAsyncTypebox<{ registry: EngineRegistry }> = async (app, { registry }) => {
  app.get('/engines', {
    schema: { tags: ['engines'], summary: 'List the speech engines of this machine', response: { 200: EngineList } },
    handler: async () => ({ engines: registry.summaries() }),
  });

  app.get('/engines/:id', {
    schema: {
      tags: ['engines'],
      summary: 'One engine with all its voices',
      params: EngineParams,
      response: { 200: EngineDetail, 404: ErrorBody },
    },
    handler: async (request) => registry.detail(request.params.id),
  });

  app.post('/engines/refresh', {
    schema: {
      tags: ['engines'],
      summary: 'Detect every engine again (after installing one, or adding voices or models); no body',
      response: { 200: EngineList },
    },
    handler: async () => {
      await registry.probeAll();
      return { engines: registry.summaries() };
    },
  });

  app.post('/engines/:id/refresh', {
    schema: {
      tags: ['engines'],
      summary: 'Detect one engine again, e.g. to retry one marked unavailable; no body',
      params: EngineParams,
      response: { 200: EngineDetail, 404: ErrorBody },
    },
    handler: async (request) => {
      await registry.refresh(request.params.id);
      return registry.detail(request.params.id);
    },
  });
};
