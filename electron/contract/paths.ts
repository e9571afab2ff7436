/**
 * The API's roots. Each route's path is in the route table (routes/), with the path builders
 * (jobPath, projectPath...) that fill its parameters.
 */
import { trimEndWhere } from './text';

export const API_ROOT = '/api/v1';
export const TTS_ROOT = `${API_ROOT}/tts`;
export const OPENAPI_PATH = `${API_ROOT}/openapi.json`;

/** A URL without the slashes at its end ("http://127.0.0.1:5700/" is "http://127.0.0.1:5700"). */
export const withoutTrailingSlashes = (url: string) => trimEndWhere(url, (char) => char === '/');
