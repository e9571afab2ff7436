import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AddressInfo } from 'node:net';
import { ErrorBody, TTS_ROOT, WHOAMI_PATH, WhoAmI, WhoAmIQuery } from '../../contract';
import { keyProof, ORATOR_VERSION } from '../identity';

export interface WhoAmIOptions {
  instance: string;
  apiKey: () => string;
}

/**
 * The one API route without a key (`security: []`, which the auth hook honours): a client asks it
 * first, with a nonce, and sends its key only to a server whose proof matches, for the instance
 * the answer names and the port the client asked.
 */
export const whoamiRoutes: FastifyPluginAsyncTypebox<WhoAmIOptions> = async (app, { instance, apiKey }) => {
  app.get(WHOAMI_PATH.slice(TTS_ROOT.length), {
    schema: {
      operationId: 'whoami',
      tags: ['identity'],
      summary: 'Which server this is, and with a nonce a proof that it holds the API key; needs no key',
      security: [],
      querystring: WhoAmIQuery,
      response: { 200: WhoAmI, 400: ErrorBody },
    },
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { nonce } = request.query;
      return {
        server: 'orator' as const,
        version: ORATOR_VERSION,
        instance,
        // the port it listens on: the Host check lets through no other
        ...(nonce === undefined
          ? {}
          : { proof: keyProof(apiKey(), { instance, port: (app.server.address() as AddressInfo).port, nonce }) }),
      };
    },
  });
};
