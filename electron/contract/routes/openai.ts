import { Type } from 'typebox';
import { AUDIO_MEDIA } from '../formats';
import { FORMAT_OF, OPENAI_ROOT, OpenAIModel, OpenAIModelList, OpenAISpeechBody } from '../openai';
import { OpenAIAudioModelList, OpenAIVoiceList, OpenAIVoiceQuery } from '../openai-listings';
import { mediaAnswer, routeGroup } from './route';

/** Each format's own content type, or the events of `stream_format: "sse"`. */
const speech = mediaAnswer('The audio in `response_format`, streamed as it is synthesized, or Server-Sent Events', [
  ...Object.values(FORMAT_OF).map((format) => AUDIO_MEDIA[format].contentType),
  'text/event-stream',
]);

/**
 * The OpenAI-compatible dialect, under /v1, with OpenAI's errors (its error shape, its statuses);
 * a tag of its own in the OpenAPI document. docs/openai.md says what differs from OpenAI.
 */
export const openaiApi = routeGroup('OpenAI-compatible', {
  listModels: {
    method: 'GET',
    path: `${OPENAI_ROOT}/models`,
    summary: 'OpenAI-compatible: the speech models, one per engine',
    responses: { 200: OpenAIModelList },
  },
  retrieveModel: {
    method: 'GET',
    path: `${OPENAI_ROOT}/models/:model`,
    summary: 'OpenAI-compatible: one model',
    params: Type.Object({ model: Type.String() }),
    responses: { 200: OpenAIModel },
    errors: [404],
  },
  // Open WebUI asks these two without a key to fill its pickers: they list installed voices,
  // nothing more (docs/SECURITY.md), and the Host check still applies
  listAudioVoices: {
    method: 'GET',
    path: `${OPENAI_ROOT}/audio/voices`,
    summary: 'The voices, for tools’ pickers: OpenAI’s names, then every voice, the most natural first; needs no key',
    auth: 'none',
    query: OpenAIVoiceQuery,
    responses: { 200: OpenAIVoiceList },
    errors: [404],
  },
  listAudioModels: {
    method: 'GET',
    path: `${OPENAI_ROOT}/audio/models`,
    summary: 'The speech models, as tools’ pickers read them; needs no key',
    auth: 'none',
    responses: { 200: OpenAIAudioModelList },
  },
  createSpeech: {
    method: 'POST',
    path: `${OPENAI_ROOT}/audio/speech`,
    summary: 'OpenAI-compatible speech: the audio streams as it is synthesized (chunked), or as Server-Sent Events',
    body: OpenAISpeechBody,
    responses: { 200: speech },
    errors: [404, 429],
  },
});

export const OPENAI_SPEECH_PATH = openaiApi.createSpeech.path;
export const OPENAI_MODELS_PATH = openaiApi.listModels.path;
export const OPENAI_AUDIO_VOICES_PATH = openaiApi.listAudioVoices.path;
export const OPENAI_AUDIO_MODELS_PATH = openaiApi.listAudioModels.path;
