import type { FastifyPluginAsync } from 'fastify';
import { Readable } from 'node:stream';
import {
  API,
  ApiError,
  DOWNLOAD_PATH_HEADER,
  IGNORED_FIELDS_HEADER,
  ignoredFieldsValue,
  jobAudioPath,
  OPENAI_MAX_INPUT,
} from '../../contract';
import { readSpeechRequest } from '../../services/openai-request';
import type { OpenAISpeechService } from '../../services/openai-speech';
import type { SpeechStream } from '../../services/speech-stream';
import { toOpenAIError } from '../plugins/openai-errors';
import { serve } from '../serve-route';
import type { SlotPool } from '../slots';
import { holdForAnswer } from './hold';
import { requireBody } from './replies';
import { logged, sendSpeechAudio, speechHeaders } from './speech-reply';

/** Room for the longest input and instructions, every character \uXXXX-escaped. */
export const SPEECH_BODY_LIMIT = 2 * 12 * OPENAI_MAX_INPUT + 64 * 1024;

/**
 * The OpenAI-compatible dialect, under /v1: speech and the model list, with OpenAI's errors. The
 * OpenAPI document lists its routes (tagged), so that their key (the TTS key, the document's
 * default `bearer`) and their schemas are stated where every other route's are; docs/openai.md
 * says what differs from OpenAI.
 */
export const openaiRoutes: FastifyPluginAsync<{ speech: OpenAISpeechService; slots: SlotPool }> = async (app, { speech, slots }) => {
  serve(app, API.listModels, async () => ({ object: 'list' as const, data: speech.models() }));

  serve(app, API.retrieveModel, async (request) => speech.model(request.params.model));

  serve(app, API.listAudioVoices, async (request) => {
    const voices = speech.voiceList(request.query);
    return { voices, data: voices };
  });

  serve(app, API.listAudioModels, async () => speech.audioModels());

  serve(
    app,
    API.createSpeech,
    async (request, reply) => {
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
    { bodyLimit: SPEECH_BODY_LIMIT, preValidation: requireBody },
  );
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
