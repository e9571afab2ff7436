import fp from 'fastify-plugin';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { ignoredFieldsValue } from '../contract';
import { RotatingLog } from '../storage/rotating-log';
import { PLUGIN } from './plugins/names';

declare module 'fastify' {
  interface FastifyRequest {
    /** Fields of the body a lenient route accepted and ignored (the /v1 speech route), for the log. */
    ignoredFields?: string[];
  }
}

/** `<data-dir>/logs/requests.jsonl`, rotated at 10 MB with 3 older files kept: at most 40 MB. */
export const REQUEST_LOG = { dir: 'logs', file: 'requests.jsonl', maxBytes: 10 * 1024 * 1024, keep: 3 };

export function openRequestLog(dataDir: string, options: Partial<{ maxBytes: number; keep: number }> = {}): RotatingLog {
  return new RotatingLog(path.join(dataDir, REQUEST_LOG.dir, REQUEST_LOG.file), {
    maxBytes: options.maxBytes ?? REQUEST_LOG.maxBytes,
    keep: options.keep ?? REQUEST_LOG.keep,
  });
}

/** One request as logged: what happened, never what was said (no text, query, header or key). */
export interface RequestLogLine {
  /** When the request arrived, ISO 8601. */
  time: string;
  method: string;
  /** The route pattern ("/api/v1/tts/jobs/:id"), never the URL with its ids and query; null when no route matched. */
  route: string | null;
  status: number;
  ms: number;
  /** Bytes sent on the connection for this answer, headers included. */
  bytes: number;
  /** The client left (or the gateway shut down) before the answer was complete. */
  aborted?: true;
  /** Body fields accepted and ignored (their names, as X-Orator-Ignored-Fields gives them). */
  ignored_fields?: string;
}

/**
 * Writes a line when each answer is over, event streams included (they are hijacked, so Fastify's
 * onResponse would miss them). Registered first, so that refused requests (Host, key) are logged
 * too; without a log (a bare server in a test) it writes nothing.
 */
export const requestLog = fp<{ log?: { write(line: string): void } | undefined }>(
  async (app, { log }) => {
    if (!log) return;
    app.addHook('onRequest', async (request, reply) => {
      const time = new Date().toISOString();
      const started = performance.now();
      const socket = request.raw.socket;
      const sentBefore = socket.bytesWritten;
      reply.raw.once('close', () => {
        const line: RequestLogLine = {
          time,
          method: request.method,
          route: request.routeOptions.url ?? null,
          status: reply.raw.statusCode,
          ms: Math.round((performance.now() - started) * 10) / 10,
          bytes: socket.bytesWritten - sentBefore,
          ...(reply.raw.writableFinished ? {} : { aborted: true as const }),
          ...(request.ignoredFields ? { ignored_fields: ignoredFieldsValue(request.ignoredFields) } : {}),
        };
        log.write(JSON.stringify(line));
      });
    });
  },
  { name: PLUGIN.requestLog },
);
