import { TTS_ROOT } from '../paths';
import { RenderCacheStats } from '../render-cache';
import { routeGroup } from './route';

const path = `${TTS_ROOT}/render-cache`;

/** The render cache (docs/projects.md#the-render-cache); the TTS key: emptying it changes nothing that is heard. */
export const renderCacheApi = routeGroup('render-cache', {
  getRenderCache: {
    method: 'GET',
    path,
    summary: 'What the render cache holds, and the sentences it saved and the engine spoke since the start',
    responses: { 200: RenderCacheStats },
  },
  clearRenderCache: {
    method: 'DELETE',
    path,
    summary: 'Empty the render cache (jobs keep their audio; later renders synthesize their sentences again)',
    responses: { 200: RenderCacheStats },
  },
});

export const RENDER_CACHE_PATH = renderCacheApi.getRenderCache.path;
