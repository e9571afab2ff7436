import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiError,
  ErrorBody,
  LEXICON_MEDIA_TYPES,
  LexiconEntryParams,
  LexiconExportQuery,
  LexiconImport,
  LexiconImportResult,
  LexiconList,
  LexiconPatch,
  LexiconReplace,
  LexiconScope,
} from '../../contract';
import type { LexiconService } from '../../services/lexicon';
import { contentDisposition } from './replies';

const fileAnswer = {
  description: 'The lexicon as a file: PLS (application/pls+xml) or CSV (text/csv)',
  content: { [LEXICON_MEDIA_TYPES.pls]: { schema: { type: 'string' } }, [LEXICON_MEDIA_TYPES.csv]: { schema: { type: 'string' } } },
};

/**
 * Routes of the pronunciation lexicon, relative to TTS_ROOT. They take the TTS key, reading and
 * writing alike: a lexicon changes what is said, never what runs (unlike settings, which name
 * programs and folders and take the admin token).
 */
export const lexiconRoutes: FastifyPluginAsyncTypebox<{ lexicon: LexiconService }> = async (app, { lexicon }) => {
  const tags = ['lexicon'];

  app.get('/lexicon', {
    schema: {
      operationId: 'getLexicon',
      tags,
      summary: 'Lexicon entries, all or of one language or voice',
      querystring: LexiconScope,
      response: { 200: LexiconList, 400: ErrorBody },
    },
    handler: async (request) => lexicon.list(request.query),
  });

  app.put('/lexicon', {
    schema: {
      operationId: 'replaceLexicon',
      tags,
      summary: 'Replace the whole lexicon',
      body: LexiconReplace,
      response: { 200: LexiconList, 400: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    handler: async (request) => lexicon.replace(request.body.entries),
  });

  app.patch('/lexicon', {
    schema: {
      operationId: 'changeLexicon',
      tags,
      summary: 'Add or replace entries (same grapheme, language, voice and case rule) and delete entries by id',
      body: LexiconPatch,
      response: { 200: LexiconList, 400: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    handler: async (request) => lexicon.patch(request.body),
  });

  app.delete('/lexicon', {
    schema: {
      operationId: 'clearLexicon',
      tags,
      summary: 'Delete the entries of a language or voice, or all entries',
      querystring: LexiconScope,
      response: { 200: LexiconList, 400: ErrorBody },
    },
    handler: async (request) => lexicon.remove(request.query),
  });

  app.delete('/lexicon/:id', {
    schema: {
      operationId: 'deleteLexiconEntry',
      tags,
      summary: 'Delete one entry',
      params: LexiconEntryParams,
      response: { 204: { type: 'null' }, 404: ErrorBody },
    },
    handler: async (request, reply) => {
      if (!(await lexicon.removeEntry(request.params.id))) throw new ApiError('not_found', `No lexicon entry "${request.params.id}".`);
      return reply.code(204).send(null);
    },
  });

  app.get('/lexicon/export', {
    schema: {
      operationId: 'exportLexicon',
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
        .header('content-disposition', contentDisposition('attachment', name))
        .send(lexicon.export(format, scope));
    },
  });

  app.post('/lexicon/import', {
    schema: {
      operationId: 'importLexicon',
      tags,
      summary: 'Import a PLS or CSV file, its text in "data"',
      body: LexiconImport,
      response: { 200: LexiconImportResult, 400: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    handler: async (request) => {
      const { format, data, mode, language } = request.body;
      return lexicon.import(format, data, { mode: mode ?? 'merge', language });
    },
  });
};
