import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isUtf8 } from 'node:buffer';
import {
  ApiError,
  ErrorBody,
  LEXICON_LIMITS,
  LEXICON_MEDIA_TYPES,
  LexiconEntryParams,
  LexiconExportQuery,
  LexiconImportQuery,
  LexiconImportResult,
  LexiconList,
  LexiconPatch,
  LexiconReplace,
  LexiconScope,
  type LexiconFormat,
} from '../../contract';
import type { LexiconService } from '../../services/lexicon';

/** Media types an imported file may be sent as, and the format each means. */
const IMPORT_TYPES: Record<string, LexiconFormat> = {
  'application/pls+xml': 'pls',
  'application/xml': 'pls',
  'text/xml': 'pls',
  'text/csv': 'csv',
};

const fileAnswer = {
  description: 'The lexicon as a file: PLS (application/pls+xml) or CSV (text/csv)',
  content: { [LEXICON_MEDIA_TYPES.pls]: { schema: { type: 'string' } }, [LEXICON_MEDIA_TYPES.csv]: { schema: { type: 'string' } } },
};

/**
 * Routes of the pronunciation lexicon, relative to TTS_ROOT. They take the TTS key, reading and
 * writing alike: a lexicon changes what is said, never what runs (unlike settings, which name
 * programs and folders and take the admin token). Bodies are at most LEXICON_LIMITS.bodyBytes.
 */
export const lexiconRoutes: FastifyPluginAsyncTypebox<{ lexicon: LexiconService }> = async (app, { lexicon }) => {
  // Files come as they are; only the import route reads them (others answer 415 by their schema).
  app.addContentTypeParser(Object.keys(IMPORT_TYPES), { parseAs: 'buffer' }, (_request, body: Buffer, done) => {
    if (!isUtf8(body)) return done(new ApiError('invalid_lexicon', 'The file is not valid UTF-8; save it as UTF-8.'), undefined);
    done(null, body.toString('utf8'));
  });
  const bodyLimit = LEXICON_LIMITS.bodyBytes;
  const tags = ['lexicon'];

  app.get('/lexicon', {
    schema: {
      tags,
      summary: 'Lexicon entries, all or of one language or voice',
      querystring: LexiconScope,
      response: { 200: LexiconList, 400: ErrorBody },
    },
    handler: async (request) => lexicon.list(request.query),
  });

  app.put('/lexicon', {
    bodyLimit,
    schema: {
      tags,
      summary: 'Replace the whole lexicon',
      body: LexiconReplace,
      response: { 200: LexiconList, 400: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    handler: async (request) => lexicon.replace(request.body.entries),
  });

  app.patch('/lexicon', {
    bodyLimit,
    schema: {
      tags,
      summary: 'Add or replace entries (same grapheme, language, voice and case rule) and delete entries by id',
      body: LexiconPatch,
      response: { 200: LexiconList, 400: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    handler: async (request) => lexicon.patch(request.body),
  });

  app.delete('/lexicon', {
    schema: {
      tags,
      summary: 'Delete the entries of a language or voice, or all entries',
      querystring: LexiconScope,
      response: { 200: LexiconList, 400: ErrorBody },
    },
    handler: async (request) => lexicon.remove(request.query),
  });

  app.delete('/lexicon/:id', {
    schema: { tags, summary: 'Delete one entry', params: LexiconEntryParams, response: { 204: { type: 'null' }, 404: ErrorBody } },
    handler: async (request, reply) => {
      if (!(await lexicon.removeEntry(request.params.id))) throw new ApiError('not_found', `No lexicon entry "${request.params.id}".`);
      return reply.code(204).send(null);
    },
  });

  app.get('/lexicon/export', {
    schema: {
      tags,
      summary: 'The lexicon as a PLS (one language) or CSV file',
      querystring: LexiconExportQuery,
      response: { 200: fileAnswer, 400: ErrorBody },
    },
    handler: async (request, reply) => {
      const { format, ...scope } = request.query;
      const name = `orator-lexicon${scope.language ? `-${scope.language}` : ''}.${format}`;
      return reply
        .type(`${LEXICON_MEDIA_TYPES[format]}; charset=utf-8`)
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(lexicon.export(format, scope));
    },
  });

  app.post('/lexicon/import', {
    bodyLimit,
    schema: {
      tags,
      summary: 'Import a PLS (application/pls+xml) or CSV (text/csv) file',
      querystring: LexiconImportQuery,
      consumes: Object.keys(IMPORT_TYPES),
      response: { 200: LexiconImportResult, 400: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    handler: async (request) => {
      const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      const format = IMPORT_TYPES[type];
      if (format === undefined || typeof request.body !== 'string') {
        throw new ApiError('unsupported_media_type', 'Send the file as Content-Type: application/pls+xml or text/csv.');
      }
      return lexicon.import(format, request.body, { mode: request.query.mode ?? 'merge', language: request.query.language });
    },
  });
};
