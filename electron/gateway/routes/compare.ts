import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import path from 'node:path';
import { API, ApiError, compareSessionPath, type CompareSession } from '../../contract';
import type { CompareService } from '../../services/compare-sessions';
import { serve } from '../serve-route';

/** Routes of compare sessions (docs/api.md#compare-sessions); the TTS key, like jobs. */
export const compareRoutes: FastifyPluginAsync<{ compare: CompareService }> = async (app, { compare }) => {
  const created = (reply: FastifyReply, session: CompareSession) =>
    reply.code(201).header('location', compareSessionPath(session.session_id)).send(session);

  serve(app, API.listCompareSessions, async () => compare.list());

  serve(app, API.createCompareSession, async (request, reply) => created(reply, await compare.create(request.body)));

  serve(app, API.getCompareSession, async (request) => compare.get(request.params.id));

  serve(app, API.changeCompareSession, async (request) => compare.update(request.params.id, request.body));

  serve(app, API.deleteCompareSession, async (request, reply) => {
    await compare.remove(request.params.id);
    return reply.code(204).send(null);
  });

  serve(app, API.duplicateCompareSession, async (request, reply) =>
    created(reply, await compare.duplicate(request.params.id, request.body)),
  );

  serve(app, API.synthesizeCompareSession, async (request) => compare.synthesize(request.params.id));

  serve(app, API.changeCompareTake, async (request) => compare.updateTake(request.params.id, request.params.take, request.body));

  serve(app, API.getCompareTakeAudio, async (request, reply) => {
    const file = compare.takeAudio(request.params.id, request.params.take);
    request.onMissingFile = () => new ApiError('audio_missing', 'The audio of this take was removed outside Orator; synthesize it again.');
    reply.type('audio/wav').header('content-disposition', `attachment; filename="${path.basename(file)}"`);
    return reply.sendFile(path.basename(file), path.dirname(file), {
      acceptRanges: true,
      cacheControl: false,
      etag: true,
      lastModified: true,
    });
  });
};
