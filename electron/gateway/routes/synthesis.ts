import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import {
  ApiError,
  AUDIO_HEADERS,
  AUDIO_MEDIA,
  DEFAULT_OUTPUT_FORMAT,
  INLINE_TIMINGS_MAX_BYTES,
  ErrorBody,
  formatNamed,
  JobAccepted,
  PreviewBody,
  speechFileName,
  SynthesizeBody,
} from '../../contract';
import type { InlineAudio, SynthesisService } from '../../services/synthesis';
import type { SlotPool } from '../slots';
import { audioResponse, contentDisposition, sendJobAccepted } from './replies';
import { holdForAnswer } from './hold';
import { sendSpeechAudio } from './speech-reply';

const inlineResponse = audioResponse('The audio, inline, in the requested format (default: 16-bit PCM mono WAV); streamed with `stream`');
/** Both speak: the text's own errors, and the engine's (failed, unavailable, timed out). */
const errors = { 400: ErrorBody, 413: ErrorBody, 415: ErrorBody, 422: ErrorBody, 502: ErrorBody, 503: ErrorBody, 504: ErrorBody };

function sendInline(reply: FastifyReply, audio: InlineAudio) {
  const timings = audio.timings && JSON.stringify(audio.timings);
  if (timings && timings.length <= INLINE_TIMINGS_MAX_BYTES) reply.header(AUDIO_HEADERS.timings, timings);
  if (audio.loudnessLufs !== null) reply.header(AUDIO_HEADERS.loudness, audio.loudnessLufs.toFixed(2));
  return reply
    .code(200)
    .type(AUDIO_MEDIA[audio.format].contentType)
    .header('content-disposition', contentDisposition('inline', speechFileName(audio.format)))
    .header(AUDIO_HEADERS.engine, audio.engine)
    .header(AUDIO_HEADERS.voice, audio.voice)
    .header(AUDIO_HEADERS.duration, audio.durationS.toFixed(3))
    .send(audio.audio);
}

export const synthesisRoutes: FastifyPluginAsyncTypebox<{ synthesis: SynthesisService; slots: SlotPool }> = async (
  app,
  { synthesis, slots },
) => {
  // A POST with no body at all never reaches a content-type parser.
  app.addHook('preValidation', async (request) => {
    if (request.body !== undefined) return;
    if (!request.headers['content-type']) throw new ApiError('unsupported_media_type', 'Send the body as Content-Type: application/json.');
    throw new ApiError('invalid_json', 'The body is empty; send a JSON object.');
  });

  app.post('/synthesize', {
    schema: {
      operationId: 'synthesize',
      tags: ['synthesis'],
      summary: 'Speak text: inline audio (200) up to the inline threshold, else a queued job (202)',
      body: SynthesizeBody,
      response: { 200: inlineResponse, 202: JobAccepted, 429: ErrorBody, 507: ErrorBody, ...errors },
    },
    handler: async (request, reply) => {
      if (request.body.stream) {
        const gone = holdForAnswer(slots, request, reply);
        const stream = await synthesis.stream(request.body, gone);
        return sendSpeechAudio(
          reply.header(
            'content-disposition',
            contentDisposition('inline', speechFileName(formatNamed(request.body.format ?? DEFAULT_OUTPUT_FORMAT))),
          ),
          stream,
          gone,
        );
      }
      const result = await synthesis.synthesize(request.body);
      return result.kind === 'inline' ? sendInline(reply, result) : sendJobAccepted(reply, result.job.job_id);
    },
  });

  app.post('/preview', {
    schema: {
      operationId: 'preview',
      tags: ['synthesis'],
      summary: 'A short inline sample of a voice (its sample sentence unless `text` is given)',
      body: PreviewBody,
      response: { 200: inlineResponse, ...errors },
    },
    handler: async (request, reply) => sendInline(reply, await synthesis.preview(request.body)),
  });
};
