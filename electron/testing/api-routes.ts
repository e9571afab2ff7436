/**
 * Test support: the gateway's API routes as its served OpenAPI document lists them, so that the
 * hostile-input and auth matrices cover every route, including routes added later.
 */
import { OPENAPI_PATH } from '../contract';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  pattern?: string;
  additionalProperties?: boolean | JsonSchema;
}

export interface ApiRoute {
  method: string;
  /** As the document writes it: /api/v1/tts/jobs/{id}. */
  template: string;
  pathParams: string[];
  queryParams: { name: string; schema: JsonSchema }[];
  /** The JSON body's schema, for routes that take one. */
  body?: JsonSchema;
  /** The operation declares `security: []`: it needs no key. */
  public: boolean;
  /** The security schemes any one of which opens the route (the document's default: the TTS key, "bearer"). */
  schemes: string[];
}

interface Operation {
  parameters?: { in: string; name: string; schema: JsonSchema }[];
  requestBody?: { content?: { 'application/json'?: { schema: JsonSchema } } };
  security?: unknown[];
}

export async function apiRoutes(baseUrl: string): Promise<ApiRoute[]> {
  const doc = (await (await fetch(baseUrl + OPENAPI_PATH)).json()) as {
    paths: Record<string, Record<string, Operation>>;
    security: unknown[];
  };
  const defaultSecurity = doc.security;
  return Object.entries(doc.paths).flatMap(([template, operations]) =>
    Object.entries(operations).map(([method, operation]) => {
      const params = (where: string) => (operation.parameters ?? []).filter((p) => p.in === where);
      const body = operation.requestBody?.content?.['application/json']?.schema;
      return {
        method: method.toUpperCase(),
        template,
        pathParams: params('path').map((p) => p.name),
        queryParams: params('query').map(({ name, schema }) => ({ name, schema })),
        ...(body ? { body } : {}),
        public: Array.isArray(operation.security) && operation.security.length === 0,
        schemes: (operation.security ?? defaultSecurity).flatMap((requirement) => Object.keys(requirement as object)),
      };
    }),
  );
}

/** Whether the gateway reads a body for this method (Fastify ignores the body of GET and HEAD). */
export const readsBody = (route: Pick<ApiRoute, 'method'>) => route.method !== 'GET' && route.method !== 'HEAD';

/**
 * The route's path with each parameter replaced: `{id}` after "/engines" by ids.engines, and so
 * on; `hostile` (already URL-encoded as wanted) replaces them all instead when given.
 */
export function routePath(route: ApiRoute, ids: Record<string, string>, hostile?: string): string {
  return route.template.replace(/\/([^/{}]+)\/\{([^}]+)\}/g, (_match, collection: string) => {
    const value = hostile ?? encodeURIComponent(ids[collection] ?? 'no-such-id');
    return `/${collection}/${value}`;
  });
}

/**
 * A body the route accepts: Orator's {"text"} or OpenAI's {"model","input","voice"} when it speaks
 * text, a manuscript file ({"name","text"}, alone or as "manuscript") for projects, {"paragraph"} to
 * split a chapter, {"title"} when it renames, {"format"} to export a project, one text and voice
 * for a compare session, else an empty object.
 */
/** The text of a compare session's sample body: a session made with it keeps its takes when patched with it. */
export const SAMPLE_SESSION_TEXT = 'Hi.';

export function sampleBody(route: ApiRoute): Record<string, unknown> {
  const manuscript = { name: 'book.txt', text: 'Hi.' };
  if (route.body?.properties?.manuscript) return { manuscript };
  if (route.body?.properties?.name && route.body.properties.text) return manuscript;
  if (route.body?.properties?.text) return { text: 'Hi.' };
  if (route.body?.properties?.texts) return { texts: [SAMPLE_SESSION_TEXT], voices: ['espeak-ng:en-us'] };
  if (route.body?.properties?.input) return { model: 'tts-1', input: 'Hi.', voice: 'alloy' };
  // a chapter's split: where
  if (route.body?.properties?.paragraph) return { paragraph: 1 };
  if (route.body?.properties?.title) return { title: 'Chapter one' };
  // a project's export: its options alone (the jobs are the project's)
  if (route.body?.required?.includes('format') && !route.body.properties?.job_ids) return { format: 'm4b' };
  return {};
}
