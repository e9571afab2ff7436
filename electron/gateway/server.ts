import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { maxHeaderSize } from 'node:http';
import { OPENAPI_PATH, type VoiceEvent } from '../contract';
import type { EngineRegistry } from '../engines/registry';
import type { FleetEngines } from '../jobs/redis/fleet-engines';
import type { CompareService } from '../services/compare-sessions';
import type { RenderCacheService } from '../services/render-cache';
import type { ExportService } from '../services/exports';
import type { JobRerenders } from '../services/job-rerender';
import type { JobService } from '../services/jobs';
import type { LexiconService } from '../services/lexicon';
import type { OpenAISpeechService } from '../services/openai-speech';
import type { ProjectService } from '../services/projects';
import type { SettingsService } from '../settings/service';
import type { SynthesisService } from '../services/synthesis';
import type { VoiceLibraryService } from '../services/voice-library';
import { auth, hasKey, SECURITY_SCHEMES } from './plugins/auth';
import { desktopOrigin } from './plugins/desktop-origin';
import { answerClientError, errorHandling } from './plugins/errors';
import { answerFrameworkErrorInDialect, openAIDialect } from './plugins/openai-errors';
import { hostCheck } from './plugins/host-check';
import { declareOperations } from './plugins/operations';
import { securityHeaders } from './plugins/security-headers';
import { requestLog } from './request-log';
import { jsonBody } from './plugins/json-body';
import { compareRoutes } from './routes/compare';
import { renderCacheRoutes } from './routes/render-cache';
import { engineRoutes } from './routes/engines';
import { exportRoutes } from './routes/exports';
import { jobRoutes } from './routes/jobs';
import { lexiconRoutes } from './routes/lexicon';
import { openaiRoutes, SPEECH_BODY_LIMIT } from './routes/openai';
import { projectRoutes } from './routes/projects';
import { settingsRoutes } from './routes/settings';
import { synthesisRoutes } from './routes/synthesis';
import { voiceLibraryRoutes } from './routes/voice-library';
import { whoamiRoutes } from './routes/whoami';
import { internalRoutes, type InternalOptions } from './routes/internal';
import { endEventStreams } from './sse';
import { gatewaySlots } from './slots';
import { keptSerializers, validatorsByPart } from './validators';

export interface ServerDeps {
  registry: EngineRegistry;
  synthesis: SynthesisService;
  jobs: JobService;
  rerenders: JobRerenders;
  exports: ExportService;
  /** The OpenAI-compatible dialect under /v1. */
  openaiSpeech: OpenAISpeechService;
  settings: SettingsService;
  lexicon: LexiconService;
  projects: ProjectService;
  /** The voice library; none in tests that build a bare server. */
  voiceLibrary?: VoiceLibraryService;
  compare: CompareService;
  renderCache: RenderCacheService;
  apiKey: () => string;
  /** Opens the settings routes only. */
  adminToken: () => string;
  /** Host headers accepted (name:port); read per request because the port is known only after listen. */
  allowedHosts: () => Set<string>;
  bodyLimit: number;
  staticDir?: string | undefined;
  logger?: boolean;
  /** This data folder's gateway id (whoami). */
  instance: string;
  /** With the Redis queue: the worker hosts' engines, listed with the gateway's own. */
  fleet?: FleetEngines | undefined;
  /** The worker hosts' routes, with the Redis queue only. */
  internal?: InternalOptions | undefined;
  /** Where one line per request goes (request-log.ts); none in tests that build a bare server. */
  requestLog?: { write(line: string): void };
}

/**
 * Slow clients cannot hold sockets for long: request headers must be complete within 10 s and the
 * whole request (a body of up to ~23 MB) within 60 s, checked every second; else Node answers 408
 * and closes the socket. The time an answer takes (a long synthesis) is not limited by these.
 */
export const HTTP_TIMEOUTS = { headersMs: 10_000, requestMs: 60_000, checkEveryMs: 1_000 };

/** Builds the gateway without listening: the same app for `npm run serve`, Electron and tests. */
export async function buildServer(deps: ServerDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? false,
    bodyLimit: deps.bodyLimit,
    http: { headersTimeout: HTTP_TIMEOUTS.headersMs, connectionsCheckingInterval: HTTP_TIMEOUTS.checkEveryMs },
    requestTimeout: HTTP_TIMEOUTS.requestMs,
    // At close, idle keep-alive sockets go at once and requests in flight are answered (see
    // start.ts for the grace period); event streams never end by themselves, so preClose ends them.
    forceCloseConnections: 'idle',
    // Bodies are validated strictly: no coercion (a number is not text), unknown fields are errors;
    // query strings alone are coerced (validators.ts).
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
    schemaController: { compilersFactory: { buildValidator: validatorsByPart(), buildSerializer: keptSerializers() } },
    // Ids of any length reach their route and get its 404 (the request line is bounded by Node's header limit).
    routerOptions: { maxParamLength: maxHeaderSize },
    frameworkErrors: answerFrameworkErrorInDialect,
    clientErrorHandler: answerClientError,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addHook('preClose', async () => endEventStreams(app.server));
  // cross-cutting plugins: each names those it must follow (plugins/names.ts), which avvio checks
  await app.register(requestLog, { log: deps.requestLog });
  await app.register(securityHeaders);
  await app.register(jsonBody);
  await app.register(errorHandling, { bodyLimit: deps.bodyLimit, dialects: [openAIDialect(SPEECH_BODY_LIMIT)] });
  await app.register(hostCheck, { hosts: deps.allowedHosts });
  await app.register(desktopOrigin);
  await app.register(auth, { apiKey: deps.apiKey, adminToken: deps.adminToken, workerToken: deps.internal?.workerToken });
  declareOperations(app);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Orator TTS gateway', version: '1', description: 'Offline text-to-speech over HTTP on 127.0.0.1.' },
      components: { securitySchemes: SECURITY_SCHEMES },
      security: [{ bearer: [] }],
    },
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());

  // what a request may hold (streams, encoders, exports, edits), per key and in total: one pool of each
  const slots = gatewaySlots();
  // each route's path is the route table's (contract/routes): no prefixes here
  await app.register(whoamiRoutes, { instance: deps.instance, apiKey: deps.apiKey });
  await app.register(engineRoutes, { registry: deps.registry, fleet: deps.fleet });
  await app.register(synthesisRoutes, { synthesis: deps.synthesis, slots: slots.encoders });
  await app.register(jobRoutes, {
    jobs: deps.jobs,
    rerenders: deps.rerenders,
    hasKey: (request) => hasKey(request, deps.apiKey),
    slots,
    ...(deps.voiceLibrary ? { voiceEvents: subscriber(deps.voiceLibrary) } : {}),
  });
  await app.register(exportRoutes, { exports: deps.exports, slots });
  await app.register(settingsRoutes, { settings: deps.settings });
  await app.register(lexiconRoutes, { lexicon: deps.lexicon });
  await app.register(projectRoutes, { projects: deps.projects, slots });
  if (deps.voiceLibrary) await app.register(voiceLibraryRoutes, { library: deps.voiceLibrary });
  await app.register(compareRoutes, { compare: deps.compare });
  await app.register(renderCacheRoutes, { renderCache: deps.renderCache });
  await app.register(openaiRoutes, { speech: deps.openaiSpeech, slots: slots.encoders });
  if (deps.internal) await app.register(internalRoutes, deps.internal);

  if (deps.staticDir && existsSync(deps.staticDir)) {
    await app.register(fastifyStatic, { root: deps.staticDir, wildcard: true });
  } else {
    await app.register(fastifyStatic, { root: process.cwd(), serve: false });
    app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.type('text/html').send(PLACEHOLDER));
  }
  return app;
}

/** The library's install events as a subscription, for the stream of all events. */
function subscriber(library: VoiceLibraryService) {
  return (listener: (event: VoiceEvent) => void) => {
    library.on('voice', listener);
    return () => void library.off('voice', listener);
  };
}

const PLACEHOLDER = `<!doctype html><meta charset="utf-8"><title>Orator</title>
<p>The Orator gateway is running. The studio is not built: run <code>npm run build</code>.
The API is described at <a href="${OPENAPI_PATH}">${OPENAPI_PATH}</a>.</p>`;
