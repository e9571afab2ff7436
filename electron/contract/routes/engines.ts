import { EngineDetail, EngineList, EngineParams, VoiceList, VoiceListQuery } from '../engines';
import { TTS_ROOT } from '../paths';
import { routeGroup } from './route';

export const enginesApi = routeGroup('engines', {
  listEngines: {
    method: 'GET',
    path: `${TTS_ROOT}/engines`,
    summary: 'List the speech engines of this machine',
    responses: { 200: EngineList },
  },
  getEngine: {
    method: 'GET',
    path: `${TTS_ROOT}/engines/:id`,
    summary: 'One engine with all its voices',
    params: EngineParams,
    responses: { 200: EngineDetail },
    errors: [404],
  },
  listVoices: {
    method: 'GET',
    path: `${TTS_ROOT}/voices`,
    summary: 'Every engine’s voices in one list, filtered by language, engine, quality and availability',
    query: VoiceListQuery,
    responses: { 200: VoiceList },
  },
  refreshEngines: {
    method: 'POST',
    path: `${TTS_ROOT}/engines/refresh`,
    summary: 'Detect every engine again (after installing one, or adding voices or models); no body',
    responses: { 200: EngineList },
  },
  refreshEngine: {
    method: 'POST',
    path: `${TTS_ROOT}/engines/:id/refresh`,
    summary: 'Detect one engine again, e.g. to retry one marked unavailable; no body',
    params: EngineParams,
    responses: { 200: EngineDetail },
    errors: [404],
  },
});
