/** URL paths of the API, shared by routes, docs and the renderer's client. */
import { trimEndWhere } from './text';

export const API_ROOT = '/api/v1';
export const TTS_ROOT = `${API_ROOT}/tts`;
export const OPENAPI_PATH = `${API_ROOT}/openapi.json`;

export const jobPath = (id: string) => `${TTS_ROOT}/jobs/${encodeURIComponent(id)}`;
export const jobAudioPath = (id: string) => `${jobPath(id)}/audio`;
export const jobPeaksPath = (id: string) => `${jobPath(id)}/peaks`;
export const jobTimingsPath = (id: string) => `${jobPath(id)}/timings`;
export const jobSentencePath = (id: string, n: number) => `${jobPath(id)}/sentences/${n}`;
export const jobEventsPath = (id: string) => `${jobPath(id)}/events`;
export const JOBS_PATH = `${TTS_ROOT}/jobs`;
export const EVENTS_PATH = `${TTS_ROOT}/events`;

export const PROJECTS_PATH = `${TTS_ROOT}/projects`;
export const projectPath = (id: string) => `${PROJECTS_PATH}/${encodeURIComponent(id)}`;

/** A URL without the slashes at its end ("http://127.0.0.1:5700/" is "http://127.0.0.1:5700"). */
export const withoutTrailingSlashes = (url: string) => trimEndWhere(url, (char) => char === '/');
export const COMPARE_SESSIONS_PATH = `${TTS_ROOT}/compare/sessions`;
export const compareSessionPath = (id: string) => `${COMPARE_SESSIONS_PATH}/${encodeURIComponent(id)}`;
export const compareTakePath = (id: string, take: string) => `${compareSessionPath(id)}/takes/${encodeURIComponent(take)}`;
export const compareTakeAudioPath = (id: string, take: string) => `${compareTakePath(id, take)}/audio`;
