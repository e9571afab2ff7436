import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import {
  API,
  AUDIO_HEADERS,
  AUDIO_MEDIA,
  DEFAULT_OUTPUT_FORMAT,
  INLINE_TIMINGS_MAX_BYTES,
  formatNamed,
  speechFileName,
} from '../../contract';
import type { InlineAudio, SynthesisService } from '../../services/synthesis';
import type { SlotPool } from '../slots';
import { serve } from '../serve-route';
import { contentDisposition, requireBody, sendJobAccepted } from './replies';
import { holdForAnswer } from './hold';
import { sendSpeechAudio } from './speech-reply';

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

export const synthesisRoutes: FastifyPluginAsync<{ synthesis: SynthesisService; slots: SlotPool }> = async (app, { synthesis, slots }) => {
  serve(
    app,
    API.synthesize,
    async (request, reply) => {
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
    { preValidation: requireBody },
  );

  serve(app, API.preview, async (request, reply) => sendInline(reply, await synthesis.preview(request.body)), {
    preValidation: requireBody,
  });
};
