import type { FastifyPluginAsync } from 'fastify';
import { API, ApiError, LEXICON_MEDIA_TYPES } from '../../contract';
import type { LexiconService } from '../../services/lexicon';
import { serve } from '../serve-route';
import { contentDisposition } from './replies';

/**
 * Routes of the pronunciation lexicon. They take the TTS key, reading and
 * writing alike: a lexicon changes what is said, never what runs (unlike settings, which name
 * programs and folders and take the admin token).
 */
export const lexiconRoutes: FastifyPluginAsync<{ lexicon: LexiconService }> = async (app, { lexicon }) => {
  serve(app, API.getLexicon, async (request) => lexicon.list(request.query));

  serve(app, API.replaceLexicon, async (request) => lexicon.replace(request.body.entries));

  serve(app, API.changeLexicon, async (request) => lexicon.patch(request.body));

  serve(app, API.clearLexicon, async (request) => lexicon.remove(request.query));

  serve(app, API.deleteLexiconEntry, async (request, reply) => {
    if (!(await lexicon.removeEntry(request.params.id))) throw new ApiError('not_found', `No lexicon entry "${request.params.id}".`);
    return reply.code(204).send(null);
  });

  serve(app, API.exportLexicon, async (request, reply) => {
    const { format, ...scope } = request.query;
    const name = `orator-lexicon${scope.language ? `-${scope.language}` : ''}.${format}`;
    return reply
      .type(`${LEXICON_MEDIA_TYPES[format]}; charset=utf-8`)
      .header('content-disposition', contentDisposition('attachment', name))
      .send(lexicon.export(format, scope));
  });

  serve(app, API.importLexicon, async (request) => {
    const { format, data, mode, language } = request.body;
    return lexicon.import(format, data, { mode: mode ?? 'merge', language });
  });
};
