import type { FastifyInstance } from 'fastify';
import { ApiError, TTS_ROOT } from '../../contract';
import { keysMatch } from '../api-key';

/** Every /api/v1/tts route needs "Authorization: Bearer <key>". */
export function registerAuth(app: FastifyInstance, apiKey: () => string): void {
  app.addHook('onRequest', async (request) => {
    if (request.url !== TTS_ROOT && !request.url.startsWith(`${TTS_ROOT}/`)) return;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match || !keysMatch(match[1]!, apiKey())) {
      throw new ApiError(
        'unauthorized',
        match ? 'The API key is wrong.' : 'Send the API key as "Authorization: Bearer <key>".',
        { 'www-authenticate': 'Bearer realm="orator"' },
      );
    }
  });
}
