import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Readable } from 'node:stream';
import { Type } from 'typebox';
import {
  ApiError,
  DOWNLOAD_PATH_HEADER,
  IGNORED_FIELDS_HEADER,
  ignoredFieldsValue,
  jobAudioPath,
  OPENAI_MAX_INPUT,
  OPENAI_AUDIO_MODELS_PATH,
  OPENAI_AUDIO_VOICES_PATH,
  OPENAI_MODELS_PATH,
  OPENAI_ROOT,
  OPENAI_SPEECH_PATH,
  OpenAIAudioModelList,
  OpenAIErrorBody,
  OpenAIModel,
  OpenAIModelList,
  OpenAISpeechBody,
  OpenAIVoiceList,
  OpenAIVoiceQuery,
} from '../../contract';
import { FORMATS } from '../../audio/encode/formats';
import { readSpeechRequest } from '../../services/openai-request';
import { FORMAT_OF, type OpenAISpeechService } from '../../services/openai-speech';
import type { SpeechStream } from '../../services/speech-stream';
import { toOpenAIError } from '../plugins/openai-errors';
import type { SlotPool } from '../slots';
import { holdForAnswer } from './hold';
import { logged, sendSpeechAudio, speechHeaders } from './speech-reply';
/** Room for the longest input and instructions, every character \uXXXX-escaped. */
export const SPEECH_BODY_LIMIT = 2 * 12 * OPENAI_MAX_INPUT + 64 * 1024;

/** Each format's own content type, or the events of `stream_format: "sse"`. */
const SPEECH_RESPONSE = {
  description: 'The audio in `response_format`, streamed as it is synthesized, or Server-Sent Events',
  content: Object.fromEntries(
    [...Object.values(FORMAT_OF).map((format) => FORMATS[format].contentType), 'text/event-stream'].map((type) => [
      type,
      { schema: { type: 'string', format: 'binary' } },
    ]),
  ),
};

/** Groups these routes in the OpenAPI document, apart from Orator's own. */
const OPENAI_TAG = 'OpenAI-compatible';

/**
 * The OpenAI-compatible dialect, under /v1: speech and the model list, with OpenAI's errors. The
 * OpenAPI document lists its routes (tagged), so that their key (the TTS key, the document's
 * default `bearer`) and their schemas are stated where every other route's are; docs/openai.md
 * says what differs from OpenAI.
 */
export const openaiRoutes: FastifyPluginAsyncTypebox<{ speech: OpenAISpeechService; slots: SlotPool }> = async (app, { speech, slots }) => {
  app.get(OPENAI_MODELS_PATH.slice(OPENAI_ROOT.length), {
    schema: {
      operationId: 'listModels',
      tags: [OPENAI_TAG],
      summary: 'OpenAI-compatible: the speech models, one per engine',
      response: { 200: OpenAIModelList },
    },
    handler: async () => ({ object: 'list' as const, data: speech.models() }),
  });

  app.get(`${OPENAI_MODELS_PATH.slice(OPENAI_ROOT.length)}/:model`, {
    schema: {
      operationId: 'retrieveModel',
      tags: [OPENAI_TAG],
      summary: 'OpenAI-compatible: one model',
      params: Type.Object({ model: Type.String() }),
      response: { 200: OpenAIModel, 404: OpenAIErrorBody },
    },
    handler: async (request) => speech.model(request.params.model),
  });

  // Open WebUI asks these without a key to fill its pickers: they list installed voices, nothing
  // more (docs/SECURITY.md), and the Host check still applies; a key sent is not needed
  app.get(OPENAI_AUDIO_VOICES_PATH.slice(OPENAI_ROOT.length), {
    schema: {
      operationId: 'listAudioVoices',
      tags: [OPENAI_TAG],
      summary: 'The voices, for tools’ pickers: OpenAI’s names, then every voice, the most natural first; needs no key',
      security: [],
      querystring: OpenAIVoiceQuery,
      response: { 200: OpenAIVoiceList, 404: OpenAIErrorBody },
    },
    handler: async (request) => {
      const voices = speech.voiceList(request.query);
      return { voices, data: voices };
    },
  });

  app.get(OPENAI_AUDIO_MODELS_PATH.slice(OPENAI_ROOT.length), {
    schema: {
      operationId: 'listAudioModels',
      tags: [OPENAI_TAG],
      summary: 'The speech models, as tools’ pickers read them; needs no key',
      security: [],
      response: { 200: OpenAIAudioModelList },
    },
    handler: async () => speech.audioModels(),
  });

  app.post(OPENAI_SPEECH_PATH.slice(OPENAI_ROOT.length), {
    bodyLimit: SPEECH_BODY_LIMIT,
    schema: {
      operationId: 'createSpeech',
      tags: [OPENAI_TAG],
      summary: 'OpenAI-compatible speech: the audio streams as it is synthesized (chunked), or as Server-Sent Events',
      body: OpenAISpeechBody,
      response: { 200: SPEECH_RESPONSE, 404: OpenAIErrorBody, 429: OpenAIErrorBody },
    },
    // A POST with no body at all never reaches a content-type parser.
    preValidation: async (request) => {
      if (request.body !== undefined) return;
      if (!request.headers['content-type'])
        throw new ApiError('unsupported_media_type', 'Send the body as Content-Type: application/json.');
      throw new ApiError('invalid_json', 'The body is empty; send a JSON object.');
    },
    handler: async (request, reply) => {
      const read = readSpeechRequest(request.body);
      const gone = holdForAnswer(slots, request, reply);
      const { stream, ignored, keptJob } = await speech.speak(read, gone);
      if (ignored.length > 0) {
        reply.header(IGNORED_FIELDS_HEADER, ignoredFieldsValue(ignored));
        request.ignoredFields = ignored;
      }
      if (keptJob !== undefined) reply.header(DOWNLOAD_PATH_HEADER, jobAudioPath(keptJob));
      if (!read.events) return sendSpeechAudio(reply, stream, gone);
      const usage = () => speech.usage(read.input, stream.durationS);
      return speechHeaders(reply, stream)
        .type('text/event-stream; charset=utf-8')
        .send(Readable.from(speechEvents(stream, usage, gone)));
    },
  });
};

/**
 * OpenAI's speech events: the audio as base64 in `speech.audio.delta`, then `speech.audio.done`
 * with the usage. A failure after the first event can no longer change the status: it is an
 * `error` event carrying OpenAI's error object, and the stream ends.
 */
async function* speechEvents(stream: SpeechStream, usage: () => object, gone: AbortSignal): AsyncGenerator<string> {
  const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  try {
    for await (const bytes of logged(stream.audio, gone))
      yield event('speech.audio.delta', { audio: Buffer.from(bytes).toString('base64') });
    yield event('speech.audio.done', { usage: usage() });
  } catch (error) {
    if (gone.aborted) return;
    const apiError = error instanceof ApiError ? error : new ApiError('internal_error', 'The gateway failed unexpectedly; see its log.');
    yield event('error', { error: toOpenAIError(apiError).body.error });
  }
}
