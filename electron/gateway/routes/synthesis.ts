import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { ApiError, AUDIO_HEADERS, ErrorBody, JobAccepted, PreviewBody, SynthesizeBody } from '../../contract';
import type { InlineAudio, SynthesisService } from '../../services/synthesis';
import { audioResponse, sendJobAccepted } from './replies';

const wavResponse = audioResponse('The audio, inline: 16-bit PCM mono WAV');
const errors = { 400: ErrorBody, 413: ErrorBody, 415: ErrorBody, 422: ErrorBody, 503: ErrorBody };

function sendInline(reply: FastifyReply, audio: InlineAudio) {
  return reply
    .code(200)
    .type('audio/wav')
    .header(AUDIO_HEADERS.engine, audio.engine)
    .header(AUDIO_HEADERS.voice, audio.voice)
    .header(AUDIO_HEADERS.duration, audio.durationS.toFixed(3))
    .send(audio.wav);
}

export const synthesisRoutes: FastifyPluginAsyncTypebox<{ synthesis: SynthesisService }> = async (app, { synthesis }) => {
  // A POST with no body at all never reaches a content-type parser.
  app.addHook('preValidation', async (request) => {
    if (request.body !== undefined) return;
    if (!request.headers['content-type']) throw new ApiError('unsupported_media_type', 'Send the body as Content-Type: application/json.');
    throw new ApiError('invalid_json', 'The body is empty; send a JSON object.');
  });

  app.post('/synthesize', {
    schema: {
      tags: ['synthesis'],
      summary: 'Speak text: inline WAV (200) up to the inline threshold, else a queued job (202)',
      body: SynthesizeBody,
      response: { 200: wavResponse, 202: JobAccepted, 429: ErrorBody, 507: ErrorBody, ...errors },
    },
    handler: async (request, reply) => {
      const result = await synthesis.synthesize(request.body);
      return result.kind === 'inline' ? sendInline(reply, result) : sendJobAccepted(reply, result.job.job_id);
    },
  });

  app.post('/preview', {
    schema: {
      tags: ['synthesis'],
      summary: 'A short inline sample of a voice (its sample sentence unless `text` is given)',
      body: PreviewBody,
      response: { 200: wavResponse, ...errors },
    },
    handler: async (request, reply) => sendInline(reply, await synthesis.preview(request.body)),
  });
};
