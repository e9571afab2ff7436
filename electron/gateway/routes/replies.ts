import type { FastifyReply } from 'fastify';
import { AUDIO_MEDIA, jobPath, OUTPUT_FORMATS } from '../../contract';

/** An OpenAPI answer that is a file of audio, in any of the API's formats. */
export function audioResponse(description: string) {
  const file = { schema: { type: 'string', format: 'binary' } };
  return { description, content: Object.fromEntries(OUTPUT_FORMATS.map((format) => [AUDIO_MEDIA[format].contentType, file])) };
}

/** The receipt of a job taken up (a long text, a retry): 202, with where to follow it. */
export function sendJobAccepted(reply: FastifyReply, jobId: string) {
  const poll = jobPath(jobId);
  return reply
    .code(202)
    .header('location', poll)
    .send({ job_id: jobId, poll, status: 'running' as const });
}
