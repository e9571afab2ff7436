import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody, LibraryVoice, VoiceInstallBody, VoiceLibraryList, VoiceLibraryParams, VoiceLibraryQuery } from '../../contract';
import type { VoiceLibraryService } from '../../services/voice-library';
import { ADMIN_ONLY } from '../plugins/auth';

/**
 * Routes of the voice library, relative to TTS_ROOT. Listing takes the TTS key; installing,
 * removing and refreshing take the admin token, like every setting that changes what runs
 * (a voice is a model the neural engine loads).
 */
export const voiceLibraryRoutes: FastifyPluginAsyncTypebox<{ library: VoiceLibraryService }> = async (app, { library }) => {
  const tags = ['voice library'];

  app.get('/voice-library', {
    schema: {
      operationId: 'listLibraryVoices',
      tags,
      summary: 'Voices of the catalog with their state; filters: language (a BCP 47 prefix), quality, state',
      querystring: VoiceLibraryQuery,
      response: { 200: VoiceLibraryList, 400: ErrorBody },
    },
    handler: async (request) => library.list(request.query),
  });

  app.post('/voice-library/refresh', {
    schema: {
      operationId: 'refreshVoiceCatalog',
      tags,
      summary: 'Read the catalog again from voice_catalog_url (admin token); unreachable: 502, the last catalog kept; no body',
      security: ADMIN_ONLY,
      response: { 200: VoiceLibraryList, 403: ErrorBody, 502: ErrorBody },
    },
    handler: async () => library.refresh(),
  });

  app.get('/voice-library/:id', {
    schema: {
      operationId: 'getLibraryVoice',
      tags,
      summary: 'One voice of the catalog with its state',
      params: VoiceLibraryParams,
      response: { 200: LibraryVoice, 404: ErrorBody },
    },
    handler: async (request) => library.get(request.params.id),
  });

  app.post('/voice-library/:id/install', {
    schema: {
      operationId: 'installVoice',
      tags,
      summary: 'Install a voice (admin token): 202 queued, 200 already installed; {"accept_license": true} where the licence asks',
      security: ADMIN_ONLY,
      params: VoiceLibraryParams,
      body: VoiceInstallBody,
      response: {
        200: LibraryVoice,
        202: LibraryVoice,
        400: ErrorBody,
        403: ErrorBody,
        404: ErrorBody,
        409: ErrorBody,
        415: ErrorBody,
        507: ErrorBody,
      },
    },
    // the body is optional: none is {} (no licence accepted); a JSON null is still refused
    preValidation: async (request) => {
      if (request.body === undefined) request.body = {};
    },
    handler: async (request, reply) => {
      const { outcome, voice } = await library.install(request.params.id, request.body.accept_license === true);
      return reply.code(outcome === 'installed' ? 200 : 202).send(voice);
    },
  });

  app.delete('/voice-library/:id', {
    schema: {
      operationId: 'removeVoice',
      tags,
      summary: 'Cancel an install, or remove an installed voice (admin token)',
      security: ADMIN_ONLY,
      params: VoiceLibraryParams,
      response: { 204: Type.Null({ description: 'Cancelled or removed' }), 403: ErrorBody, 404: ErrorBody },
    },
    handler: async (request, reply) => {
      await library.remove(request.params.id);
      return reply.code(204).send(null);
    },
  });
};
