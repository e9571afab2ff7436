import type { FastifyReply } from 'fastify';
import { jobPath } from '../../contract';

/** An OpenAPI answer that is a file of audio. */
export function audioResponse(description: string) {
  return { description, content: { 'audio/wav': { schema: { type: 'string', format: 'binary' } } } };
}

/** The receipt of a job taken up (a long text, a retry): 202, with where to follow it. */
export function sendJobAccepted(reply: FastifyReply, jobId: string) {
  const poll = jobPath(jobId);
  return reply
    .code(202)
    .header('location', poll)
    .send({ job_id: jobId, poll, status: 'running' as const });
}
