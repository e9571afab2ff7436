import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import path from 'node:path';
import {
  ErrorBody,
  Export,
  ExportAccepted,
  ExportList,
  ExportParams,
  ExportRequest,
  exportPath,
  EXPORT_FORMATS,
  EXPORT_MEDIA,
  SUBTITLE_MEDIA,
  SubtitleQuery,
} from '../../contract';
import type { ExportService } from '../../services/exports';
import type { GatewaySlots } from '../slots';
import { holdExport } from './hold';
import { contentDisposition } from './replies';

const fileAnswer = {
  description: 'The audiobook: M4B, MP3 or ZIP',
  content: Object.fromEntries(EXPORT_FORMATS.map((f) => [EXPORT_MEDIA[f].contentType, { schema: { type: 'string', format: 'binary' } }])),
};

/** Routes of audiobook exports, relative to TTS_ROOT; the TTS key, like the job routes. */
export const exportRoutes: FastifyPluginAsyncTypebox<{ exports: ExportService; slots: GatewaySlots }> = async (app, { exports, slots }) => {
  const tags = ['exports'];

  app.post('/exports', {
    schema: {
      operationId: 'createExport',
      tags,
      summary: 'Export finished jobs as an audiobook (M4B, MP3 or ZIP) with chapters, normalised loudness and subtitles',
      body: ExportRequest,
      response: {
        202: ExportAccepted,
        400: ErrorBody,
        404: ErrorBody,
        409: ErrorBody,
        410: ErrorBody,
        413: ErrorBody,
        415: ErrorBody,
        429: ErrorBody,
        507: ErrorBody,
      },
    },
    handler: async (request, reply) => {
      const created = await exports.create(request.body, holdExport(slots, request));
      const poll = exportPath(created.export_id);
      return reply
        .code(202)
        .header('location', poll)
        .send({ export_id: created.export_id, poll, status: 'running' as const });
    },
  });

  app.get('/exports', {
    schema: { operationId: 'listExports', tags, summary: 'Exports, newest first', response: { 200: ExportList } },
    handler: async () => ({ exports: exports.list() }),
  });

  app.get('/exports/:id', {
    schema: {
      operationId: 'getExport',
      tags,
      summary: 'An export and its progress',
      params: ExportParams,
      response: { 200: Export, 404: ErrorBody },
    },
    handler: async (request, reply) => {
      const found = exports.get(request.params.id);
      if (found.status === 'running') reply.header('retry-after', '1');
      return found;
    },
  });

  app.get('/exports/:id/file', {
    schema: {
      operationId: 'getExportFile',
      tags,
      summary: 'The finished audiobook (Range requests work)',
      params: ExportParams,
      response: { 200: fileAnswer, 206: fileAnswer, 404: ErrorBody, 409: ErrorBody, 416: ErrorBody },
    },
    handler: async (request, reply) => {
      const file = exports.file(request.params.id);
      reply.type(file.contentType).header('content-disposition', contentDisposition('attachment', file.name));
      return reply.sendFile(path.basename(file.path), path.dirname(file.path), {
        acceptRanges: true,
        cacheControl: false,
        contentType: false,
        etag: true,
        lastModified: true,
      });
    },
  });

  app.get('/exports/:id/subtitles', {
    schema: {
      operationId: 'getExportSubtitles',
      tags,
      summary: "The whole book's captions, one cue per sentence, in the book's time: WebVTT (default) or SubRip",
      params: ExportParams,
      querystring: SubtitleQuery,
      response: {
        200: { description: 'text/vtt or application/x-subrip', content: { 'text/vtt': { schema: { type: 'string' } } } },
        404: ErrorBody,
        409: ErrorBody,
      },
    },
    handler: async (request, reply) => {
      const format = request.query.format ?? 'vtt';
      const file = exports.subtitles(request.params.id, format);
      reply.type(SUBTITLE_MEDIA[format]).header('content-disposition', contentDisposition('attachment', file.name));
      return reply.sendFile(path.basename(file.path), path.dirname(file.path), { cacheControl: false, contentType: false, etag: true });
    },
  });

  app.delete('/exports/:id', {
    schema: {
      operationId: 'deleteExport',
      tags,
      summary: 'Stop an export being made, or delete a finished one, with its files',
      params: ExportParams,
      response: { 204: { description: 'Deleted', type: 'null' }, 404: ErrorBody },
    },
    handler: async (request, reply) => {
      await exports.remove(request.params.id);
      return reply.code(204).send(null);
    },
  });
};
