import type { FastifyPluginAsync } from 'fastify';
import path from 'node:path';
import { API, SUBTITLE_MEDIA } from '../../contract';
import type { ExportService } from '../../services/exports';
import { serve } from '../serve-route';
import type { GatewaySlots } from '../slots';
import { holdExport } from './hold';
import { contentDisposition, sendExportAccepted } from './replies';

/** Routes of audiobook exports (docs/audiobook.md). */
export const exportRoutes: FastifyPluginAsync<{ exports: ExportService; slots: GatewaySlots }> = async (app, { exports, slots }) => {
  serve(app, API.createExport, async (request, reply) => {
    const created = await exports.create(request.body, holdExport(slots, request));
    return sendExportAccepted(reply, created.export_id);
  });

  serve(app, API.listExports, async () => ({ exports: exports.list() }));

  serve(app, API.getExport, async (request, reply) => {
    const found = exports.get(request.params.id);
    if (found.status === 'running') reply.header('retry-after', '1');
    return found;
  });

  serve(app, API.getExportFile, async (request, reply) => {
    const file = exports.file(request.params.id);
    reply.type(file.contentType).header('content-disposition', contentDisposition('attachment', file.name));
    return reply.sendFile(path.basename(file.path), path.dirname(file.path), {
      acceptRanges: true,
      cacheControl: false,
      contentType: false,
      etag: true,
      lastModified: true,
    });
  });

  serve(app, API.getExportSubtitles, async (request, reply) => {
    const format = request.query.format ?? 'vtt';
    const file = exports.subtitles(request.params.id, format);
    reply.type(SUBTITLE_MEDIA[format]).header('content-disposition', contentDisposition('attachment', file.name));
    return reply.sendFile(path.basename(file.path), path.dirname(file.path), { cacheControl: false, contentType: false, etag: true });
  });

  serve(app, API.deleteExport, async (request, reply) => {
    await exports.remove(request.params.id);
    return reply.code(204).send(null);
  });
};
