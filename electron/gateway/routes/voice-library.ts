import type { FastifyPluginAsync } from 'fastify';
import { API } from '../../contract';
import type { VoiceLibraryService } from '../../services/voice-library';
import { serve } from '../serve-route';

/**
 * Routes of the voice library. Listing takes the TTS key; installing,
 * removing and refreshing take the admin token, like every setting that changes what runs
 * (a voice is a model the neural engine loads).
 */
export const voiceLibraryRoutes: FastifyPluginAsync<{ library: VoiceLibraryService }> = async (app, { library }) => {
  serve(app, API.listLibraryVoices, async (request) => library.list(request.query));

  serve(app, API.refreshVoiceCatalog, async () => library.refresh());

  serve(app, API.getLibraryVoice, async (request) => library.get(request.params.id));

  serve(
    app,
    API.installVoice,
    async (request, reply) => {
      const { outcome, voice } = await library.install(request.params.id, request.body.accept_license === true);
      return reply.code(outcome === 'installed' ? 200 : 202).send(voice);
    },
    // the body is optional: none is {} (no licence accepted); a JSON null is still refused
    {
      preValidation: async (request) => {
        if (request.body === undefined) request.body = {};
      },
    },
  );

  serve(app, API.removeVoice, async (request, reply) => {
    await library.remove(request.params.id);
    return reply.code(204).send(null);
  });
};
