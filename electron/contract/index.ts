/**
 * The API contract: every request, response and error of /api/v1/tts as TypeBox schemas.
 * Fastify validates with them and builds the OpenAPI document from them; the renderer's
 * client checks responses with them. Imports no Node, Electron or DOM APIs.
 */
export * from './errors';
export * from './engines';
export * from './synthesis';
export * from './inline-timings';
export * from './jobs';
export * from './paths';
export * from './settings';
export * from './whoami';
export * from './security-headers';
export * from './text';
export * from './headings';
export * from './sentences';
export * from './names';
export * from './formats';
export * from './openai';
export * from './openai-listings';
export * from './internal';
export * from './lexicon';
export * from './exports';
export * from './chapters';
export * from './projects';
export * from './voice-library';
export * from './compare';
export * from './routes';
export * from './render-cache';
export * from './render-plan';
