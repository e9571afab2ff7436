import type { FastifyPluginAsync } from 'fastify';
import { API } from '../../contract';
import type { RenderCacheService } from '../../services/render-cache';
import { serve } from '../serve-route';

/** The render cache's routes: what it holds, and emptying it. */
export const renderCacheRoutes: FastifyPluginAsync<{ renderCache: RenderCacheService }> = async (app, { renderCache }) => {
  serve(app, API.getRenderCache, async () => renderCache.stats());

  serve(app, API.clearRenderCache, async () => renderCache.clear());
};
