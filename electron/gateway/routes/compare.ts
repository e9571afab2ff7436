import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import path from 'node:path';
import {
  CompareDuplicate,
  CompareSession,
  CompareSessionCreate,
  CompareSessionList,
  CompareSessionParams,
  CompareSessionPatch,
  compareSessionPath,
  CompareTake,
  CompareTakeParams,
  CompareTakePatch,
  ApiError,
  ErrorBody,
} from '../../contract';
import type { CompareService } from '../../services/compare-sessions';
import { audioResponse } from './replies';

/** Routes of compare sessions (docs/api.md#compare-sessions), relative to TTS_ROOT; the TTS key, like jobs. */
export const compareRoutes: FastifyPluginAsyncTypebox<{ compare: CompareService }> = async (app, { compare }) => {
  const tags = ['compare'];
  const params = CompareSessionParams;
  const created = (reply: FastifyReply, session: CompareSession) =>
    reply.code(201).header('location', compareSessionPath(session.session_id)).send(session);

  app.get('/compare/sessions', {
    schema: {
      operationId: 'listCompareSessions',
      tags,
      summary: 'Compare sessions, the last changed first',
      response: { 200: CompareSessionList },
    },
    handler: async () => compare.list(),
  });

  app.post('/compare/sessions', {
    schema: {
      operationId: 'createCompareSession',
      tags,
      summary: 'A new session: texts, voices and prosody (its takes are synthesized by POST …/synthesize)',
      body: CompareSessionCreate,
      response: { 201: CompareSession, 400: ErrorBody, 409: ErrorBody, 413: ErrorBody, 422: ErrorBody },
    },
    handler: async (request, reply) => created(reply, await compare.create(request.body)),
  });

  app.get('/compare/sessions/:id', {
    schema: {
      operationId: 'getCompareSession',
      tags,
      summary: 'A session, its takes and their verdicts',
      params,
      response: { 200: CompareSession, 404: ErrorBody },
    },
    handler: async (request) => compare.get(request.params.id),
  });

  app.patch('/compare/sessions/:id', {
    schema: {
      operationId: 'changeCompareSession',
      tags,
      summary: 'Rename, reveal, record pairwise choices, or change texts, voices or prosody (takes kept where they still apply)',
      params,
      body: CompareSessionPatch,
      response: { 200: CompareSession, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, 413: ErrorBody, 422: ErrorBody },
    },
    handler: async (request) => compare.update(request.params.id, request.body),
  });

  app.delete('/compare/sessions/:id', {
    schema: {
      operationId: 'deleteCompareSession',
      tags,
      summary: 'Delete a session and its takes',
      params,
      response: { 204: { type: 'null' }, 404: ErrorBody },
    },
    handler: async (request, reply) => {
      await compare.remove(request.params.id);
      return reply.code(204).send(null);
    },
  });

  app.post('/compare/sessions/:id/duplicate', {
    schema: {
      operationId: 'duplicateCompareSession',
      tags,
      summary: "A copy of the session with its takes' audio and no verdicts",
      params,
      body: CompareDuplicate,
      response: { 201: CompareSession, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, 422: ErrorBody },
    },
    handler: async (request, reply) => created(reply, await compare.duplicate(request.params.id, request.body)),
  });

  app.post('/compare/sessions/:id/synthesize', {
    schema: {
      operationId: 'synthesizeCompareSession',
      tags,
      summary: 'Queue a job for every take without audio; each take keeps its audio once its job is done',
      params,
      response: { 200: CompareSession, 404: ErrorBody, 413: ErrorBody, 422: ErrorBody, 429: ErrorBody, 507: ErrorBody },
    },
    handler: async (request) => compare.synthesize(request.params.id),
  });

  app.patch('/compare/sessions/:id/takes/:take', {
    schema: {
      operationId: 'changeCompareTake',
      tags,
      summary: "A take's rating, note and ratings per sentence",
      params: CompareTakeParams,
      body: CompareTakePatch,
      response: { 200: CompareTake, 400: ErrorBody, 404: ErrorBody },
    },
    handler: async (request) => compare.updateTake(request.params.id, request.params.take, request.body),
  });

  app.get('/compare/sessions/:id/takes/:take/audio', {
    schema: {
      operationId: 'getCompareTakeAudio',
      tags,
      summary: "A ready take's audio (WAV; Range requests work)",
      params: CompareTakeParams,
      response: {
        200: audioResponse('The WAV'),
        206: audioResponse('The requested byte range'),
        404: ErrorBody,
        409: ErrorBody,
        410: ErrorBody,
        416: ErrorBody,
      },
    },
    handler: async (request, reply) => {
      const file = compare.takeAudio(request.params.id, request.params.take);
      request.onMissingFile = () =>
        new ApiError('audio_missing', 'The audio of this take was removed outside Orator; synthesize it again.');
      reply.type('audio/wav').header('content-disposition', `attachment; filename="${path.basename(file)}"`);
      return reply.sendFile(path.basename(file), path.dirname(file), {
        acceptRanges: true,
        cacheControl: false,
        etag: true,
        lastModified: true,
      });
    },
  });
};
