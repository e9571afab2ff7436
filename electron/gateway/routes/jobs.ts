import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import path from 'node:path';
import { ErrorBody, Job, JobParams } from '../../contract';
import type { JobService } from '../../services/jobs';

export const jobRoutes: FastifyPluginAsyncTypebox<{ jobs: JobService }> = async (app, { jobs }) => {
  app.get('/jobs/:id', {
    schema: { tags: ['jobs'], summary: 'A job and its progress', params: JobParams, response: { 200: Job, 404: ErrorBody } },
    handler: async (request, reply) => {
      const job = jobs.get(request.params.id);
      if (job.status === 'running') reply.header('retry-after', '1');
      return job;
    },
  });

  app.get('/jobs/:id/audio', {
    schema: {
      tags: ['jobs'],
      summary: 'The finished audio (supports Range requests)',
      params: JobParams,
      response: {
        200: { description: 'The whole WAV file', content: { 'audio/wav': { schema: { type: 'string', format: 'binary' } } } },
        206: { description: 'The requested byte range', content: { 'audio/wav': { schema: { type: 'string', format: 'binary' } } } },
        404: ErrorBody,
        409: ErrorBody,
        410: ErrorBody,
      },
    },
    handler: async (request, reply) => {
      const file = jobs.audioFile(request.params.id);
      return reply.header('content-disposition', `attachment; filename="orator-${request.params.id}.wav"`).sendFile(path.basename(file), path.dirname(file), {
        acceptRanges: true,
        cacheControl: false,
        etag: true,
        lastModified: true,
      });
    },
  });
};
