import fp from 'fastify-plugin';
import { API_ROOT, SECURITY_HEADERS, studioPageHeaders } from '../../contract';
import { PLUGIN } from './names';

/**
 * Browser defences on every answer: nosniff and no Referer everywhere; for the web studio's pages
 * and files also the desktop window's CSP (with the gateway as 'self'), frame-ancestors 'none'
 * among it. Set before routing, so errors and event streams carry them too.
 */
export const securityHeaders = fp(
  async (app) => {
    const studio = studioPageHeaders("'self'");
    app.addHook('onRequest', async (request, reply) => {
      reply.headers(isApiPath(request.url) ? SECURITY_HEADERS : studio);
    });
  },
  { name: PLUGIN.securityHeaders, dependencies: [PLUGIN.requestLog] },
);

/** Judged on the decoded path ("/%61pi/…" is the API too); a CSP on an API answer would do no harm. */
function isApiPath(url: string): boolean {
  let path = url.split('?')[0]!;
  try {
    path = decodeURIComponent(path);
  } catch {
    // Undecodable: judged as sent.
  }
  return path.replace(/\/{2,}/g, '/').startsWith(`${API_ROOT}/`);
}
