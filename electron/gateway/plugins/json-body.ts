import { isUtf8 } from 'node:buffer';
import fp from 'fastify-plugin';
import { ApiError } from '../../contract';
import { PLUGIN } from './names';

/**
 * Bodies are JSON, and JSON is UTF-8 (RFC 8259): bytes that are not UTF-8 are refused rather than
 * read as U+FFFD, which would speak something else than what the client meant. Fastify would
 * otherwise also parse text/plain bodies as strings.
 */
export const jsonBody = fp(
  async (app) => {
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser(['application/json', 'text/plain']);
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
      if (!isUtf8(body)) return done(new ApiError('invalid_json', 'The body is not valid UTF-8; send JSON as UTF-8.'), undefined);
      parseJson(request, body.toString('utf8'), done);
    });
  },
  { name: PLUGIN.jsonBody },
);
