/**
 * The route table: every route of the gateway, declared once (method, path, parts, answers, own
 * errors, auth), keyed by operationId. The gateway registers each from here and serves the OpenAPI
 * document built from them; the client (electron/client) calls them by the same entries.
 */
import { enginesApi } from './engines';
import { exportsApi } from './exports';
import { internalApi } from './internal';
import { jobsApi } from './jobs';
import { lexiconApi } from './lexicon';
import { openaiApi } from './openai';
import { projectsApi } from './projects';
import { identityApi, settingsApi } from './settings';
import { synthesisApi } from './synthesis';
import { voiceLibraryApi } from './voice-library';
import { compareApi } from './compare';
import { renderCacheApi } from './render-cache';

export const API = {
  ...identityApi,
  ...enginesApi,
  ...synthesisApi,
  ...jobsApi,
  ...exportsApi,
  ...settingsApi,
  ...lexiconApi,
  ...projectsApi,
  ...voiceLibraryApi,
  ...compareApi,
  ...renderCacheApi,
  ...openaiApi,
  ...internalApi,
};
export type OperationId = keyof typeof API;

export * from './route';
export { audioAnswer } from './synthesis';
export { EVENTS_PATH, jobAudioPath, jobEventsPath, jobPath, jobPeaksPath, JOBS_PATH, jobSentencePath, jobTimingsPath } from './jobs';
export { exportFilePath, exportPath, EXPORTS_PATH, exportSubtitlesPath, jobSubtitlesPath } from './exports';
export { API_KEY_PATH, SETTINGS_PATH, WHOAMI_PATH } from './settings';
export { LEXICON_EXPORT_PATH, LEXICON_IMPORT_PATH, LEXICON_PATH } from './lexicon';
export { projectPath, PROJECTS_PATH } from './projects';
export { OPENAI_AUDIO_MODELS_PATH, OPENAI_AUDIO_VOICES_PATH, OPENAI_MODELS_PATH, OPENAI_SPEECH_PATH } from './openai';
export { chunkUploadPath, WORKER_CHECK_PATH } from './internal';
export { VOICE_LIBRARY_PATH, VOICE_LIBRARY_REFRESH_PATH, voiceInstallPath, voiceLibraryPath } from './voice-library';
export { RENDER_CACHE_PATH } from './render-cache';
export { COMPARE_SESSIONS_PATH, compareSessionPath, compareTakeAudioPath, compareTakePath } from './compare';
