import type { FastifyPluginAsync } from 'fastify';
import { API, ApiError, ATTEMPT_HEADER, MAX_CHUNK_AUDIO_BYTES } from '../../contract';
import { decodeWav } from '../../audio/wav';
import type { Pcm } from '../../audio/pcm';
import type { Receipt } from '../../jobs/redis/redis-chunk-queue';
import { serve } from '../serve-route';

export interface InternalOptions {
  /** Where chunk audio goes (the Redis chunk queue). */
  chunks: { receive(jobId: string, idx: number, pcm: Pcm, attempts: number): Promise<Receipt> };
  workerToken: string;
  instance: string;
}

/**
 * The worker hosts' routes (docs/scale.md), under /internal/v1, outside the API: the worker token
 * opens them (plugins/auth.ts, from the table's auth) and nothing else does.
 */
export const internalRoutes: FastifyPluginAsync<InternalOptions> = async (app, { chunks, instance }) => {
  app.addContentTypeParser('audio/wav', { parseAs: 'buffer', bodyLimit: MAX_CHUNK_AUDIO_BYTES }, (_request, body: Buffer, done) => {
    try {
      done(null, decodeWav(body));
    } catch (error) {
      done(new ApiError('invalid_request', `The chunk audio is no 16-bit mono WAV: ${(error as Error).message}`), undefined);
    }
  });

  serve(app, API.checkWorker, async () => ({ instance }));

  serve(app, API.uploadChunk, async (request) => {
    if (request.headers['content-type'] !== 'audio/wav') throw new ApiError('unsupported_media_type', 'Send the chunk audio as audio/wav.');
    const attempts = Number(request.headers[ATTEMPT_HEADER] ?? 1);
    if (!Number.isInteger(attempts) || attempts < 1) throw new ApiError('invalid_request', `${ATTEMPT_HEADER} must be a positive integer.`);
    const { job, index } = request.params;
    return { status: await chunks.receive(job, Number(index), request.body as unknown as Pcm, attempts) };
  });
};
