import { Type } from 'typebox';
import {
  CompareDuplicate,
  CompareSession,
  CompareSessionCreate,
  CompareSessionList,
  CompareSessionParams,
  CompareSessionPatch,
  CompareTake,
  CompareTakeParams,
  CompareTakePatch,
} from '../compare';
import { TTS_ROOT } from '../paths';
import { pathOf, routeGroup } from './route';
import { audioAnswer } from './synthesis';

const sessions = `${TTS_ROOT}/compare/sessions`;
const one = `${sessions}/:id`;
const params = CompareSessionParams;

/** Compare sessions (docs/api.md#compare-sessions); the TTS key, like jobs. */
export const compareApi = routeGroup('compare', {
  listCompareSessions: {
    method: 'GET',
    path: sessions,
    summary: 'Compare sessions, the last changed first',
    responses: { 200: CompareSessionList },
  },
  createCompareSession: {
    method: 'POST',
    path: sessions,
    summary: 'A new session: texts, voices and prosody (its takes are synthesized by POST …/synthesize)',
    body: CompareSessionCreate,
    responses: { 201: CompareSession },
    errors: [409, 422],
  },
  getCompareSession: {
    method: 'GET',
    path: one,
    summary: 'A session, its takes and their verdicts',
    params,
    responses: { 200: CompareSession },
    errors: [404],
  },
  changeCompareSession: {
    method: 'PATCH',
    path: one,
    summary: 'Rename, reveal, record pairwise choices, or change texts, voices or prosody (takes kept where they still apply)',
    params,
    body: CompareSessionPatch,
    responses: { 200: CompareSession },
    errors: [404, 409, 422],
  },
  deleteCompareSession: {
    method: 'DELETE',
    path: one,
    summary: 'Delete a session and its takes',
    params,
    responses: { 204: Type.Null() },
    errors: [404],
  },
  duplicateCompareSession: {
    method: 'POST',
    path: `${one}/duplicate`,
    summary: "A copy of the session with its takes' audio and no verdicts",
    params,
    body: CompareDuplicate,
    responses: { 201: CompareSession },
    errors: [404, 409, 422],
  },
  synthesizeCompareSession: {
    method: 'POST',
    path: `${one}/synthesize`,
    summary: 'Queue a job for every take without audio; each take keeps its audio once its job is done',
    params,
    responses: { 200: CompareSession },
    errors: [404, 413, 422, 429, 507],
  },
  changeCompareTake: {
    method: 'PATCH',
    path: `${one}/takes/:take`,
    summary: "A take's rating, note and ratings per sentence",
    params: CompareTakeParams,
    body: CompareTakePatch,
    responses: { 200: CompareTake },
    errors: [404],
  },
  getCompareTakeAudio: {
    method: 'GET',
    path: `${one}/takes/:take/audio`,
    summary: "A ready take's audio (WAV; Range requests work)",
    params: CompareTakeParams,
    responses: { 200: audioAnswer('The WAV'), 206: audioAnswer('The requested byte range') },
    errors: [404, 409, 410, 416],
  },
});

export const COMPARE_SESSIONS_PATH = compareApi.listCompareSessions.path;
export const compareSessionPath = (id: string) => pathOf(compareApi.getCompareSession, { id });
export const compareTakePath = (id: string, take: string) => pathOf(compareApi.changeCompareTake, { id, take });
export const compareTakeAudioPath = (id: string, take: string) => pathOf(compareApi.getCompareTakeAudio, { id, take });
