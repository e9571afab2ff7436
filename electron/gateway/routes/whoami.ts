import type { FastifyPluginAsync } from 'fastify';
import type { AddressInfo } from 'node:net';
import { API } from '../../contract';
import { keyProof, ORATOR_VERSION } from '../identity';
import { serve } from '../serve-route';

export interface WhoAmIOptions {
  instance: string;
  apiKey: () => string;
}

/**
 * The one API route without a key (auth "none" in the table): a client asks it first, with a
 * nonce, and sends its key only to a server whose proof matches, for the instance the answer names
 * and the port the client asked.
 */
export const whoamiRoutes: FastifyPluginAsync<WhoAmIOptions> = async (app, { instance, apiKey }) => {
  serve(app, API.whoami, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { nonce } = request.query;
    return {
      server: 'orator' as const,
      version: ORATOR_VERSION,
      instance,
      // the port it listens on: the Host check lets through no other
      ...(nonce === undefined ? {} : { proof: keyProof(apiKey(), { instance, port: (app.server.address() as AddressInfo).port, nonce }) }),
    };
  });
};
