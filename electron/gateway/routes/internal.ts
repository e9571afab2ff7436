import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError, ATTEMPT_HEADER, ChunkParams, ChunkReceipt, ErrorBody, MAX_CHUNK_AUDIO_BYTES, WorkerCheck } from '../../contract';
import { decodeWav } from '../../audio/wav';
import type { Pcm } from '../../audio/pcm';
import type { Receipt } from '../../jobs/redis/redis-chunk-queue';
import { presentedKey } from '../plugins/auth';
import { keysMatch } from '../api-key';

export interface InternalOptions {
  /** Where chunk audio goes (the Redis chunk queue). */
  chunks: { receive(jobId: string, idx: number, pcm: Pcm, attempts: number): Promise<Receipt> };
  workerToken: string;
  instance: string;
}

/**
 * The worker hosts' routes (docs/scale.md), under /internal/v1, outside the API: the worker token
 * opens them and nothing else does; the TTS key and the admin token are refused here.
 */
export const internalRoutes: FastifyPluginAsyncTypebox<InternalOptions> = async (app, { chunks, workerToken, instance }) => {
  app.addHook('onRequest', async (request) => {
    const token = presentedKey(request);
    if (token === undefined || !keysMatch(token, workerToken)) {
      throw new ApiError(
        'unauthorized',
        'Send the worker token (the file worker-token in the data folder) as "Authorization: Bearer <token>".',
      );
    }
  });
  app.addContentTypeParser('audio/wav', { parseAs: 'buffer', bodyLimit: MAX_CHUNK_AUDIO_BYTES }, (_request, body: Buffer, done) => {
    try {
      done(null, decodeWav(body));
    } catch (error) {
      done(new ApiError('invalid_request', `The chunk audio is no 16-bit mono WAV: ${(error as Error).message}`), undefined);
    }
  });

  app.get('/worker', {
    schema: { hide: true, response: { 200: WorkerCheck, 401: ErrorBody } },
    handler: async () => ({ instance }),
  });

  app.put('/chunks/:job/:index', {
    schema: { hide: true, params: ChunkParams, response: { 200: ChunkReceipt } },
    handler: async (request) => {
      if (request.headers['content-type'] !== 'audio/wav') {
        throw new ApiError('unsupported_media_type', 'Send the chunk audio as audio/wav.');
      }
      const attempts = Number(request.headers[ATTEMPT_HEADER] ?? 1);
      if (!Number.isInteger(attempts) || attempts < 1)
        throw new ApiError('invalid_request', `${ATTEMPT_HEADER} must be a positive integer.`);
      const { job, index } = request.params;
      return { status: await chunks.receive(job, Number(index), request.body as Pcm, attempts) };
    },
  });
};
