import type { FastifyInstance } from 'fastify';

/**
 * How long requests in flight (an inline synthesis, a file download) get to finish once a stop
 * begins; connections still busy after it are cut.
 */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Stops the HTTP side: the listener closes at once (new connections are refused), event streams
 * end (server.ts's preClose hook), requests in flight are answered within the grace period.
 * Keep-alive sockets are closed as soon as they fall idle; Node closes only those idle at the
 * start, and a client's socket would otherwise hold the stop until the grace runs out.
 */
export async function closeServerGracefully(app: FastifyInstance, graceMs = SHUTDOWN_GRACE_MS): Promise<void> {
  const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
  const cut = setTimeout(() => app.server.closeAllConnections(), graceMs);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
    clearTimeout(cut);
  }
}
