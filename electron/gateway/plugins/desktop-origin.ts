import fp from 'fastify-plugin';
import { AUDIO_HEADERS } from '../../contract';
import { PLUGIN } from './names';

/** The origin of the desktop app's pages (the app:// protocol of electron/shell/app-protocol.ts). */
export const DESKTOP_ORIGIN = 'app://orator';

const EXPOSED = ['location', 'retry-after', 'content-disposition', 'content-range', 'content-length', ...Object.values(AUDIO_HEADERS)];

/**
 * CORS for exactly one origin: the desktop window, whose pages come from app:// while the API is
 * on http://127.0.0.1. Web pages cannot claim that origin, so the allow-list stays closed to them;
 * every other Origin gets no CORS headers at all, as before. Preflights carry no key, so they are
 * answered before the auth hook (which names this plugin among its dependencies).
 */
export const desktopOrigin = fp(
  async (app) => {
    app.addHook('onRequest', async (request, reply) => {
      if (request.headers.origin !== DESKTOP_ORIGIN) return;
      reply.header('access-control-allow-origin', DESKTOP_ORIGIN).header('vary', 'Origin');
      if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
        return reply
          .code(204)
          .header('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE')
          .header('access-control-allow-headers', 'authorization, content-type, range, accept, last-event-id')
          .header('access-control-max-age', '600')
          .send();
      }
      reply.header('access-control-expose-headers', EXPOSED.join(', '));
    });
  },
  { name: PLUGIN.desktopOrigin, dependencies: [PLUGIN.hostCheck] },
);
