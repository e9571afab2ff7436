/**
 * The OpenAPI document walked against the routes the gateway registered: every route is in it
 * with a unique operationId, nothing else is, and each operation declares the errors it can
 * answer (the ones every route shares, and each route's own as docs/api.md and docs/openai.md
 * list them), in the error shape of its dialect, so generated clients type them.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_PATH } from '../contract';
import { startTestGateway, type TestGateway } from '../testing/gateway';

interface Operation {
  operationId?: string;
  security?: unknown[];
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { schema?: { properties?: Record<string, { properties?: object }> } }> }>;
}

let gateway: TestGateway;
let operations: Map<string, Operation>;
beforeAll(async () => {
  gateway = await startTestGateway({ staticDir: path.resolve('dist/renderer') });
  const doc = (await (await fetch(gateway.url + OPENAPI_PATH)).json()) as { paths: Record<string, Record<string, Operation>> };
  operations = new Map(
    Object.entries(doc.paths).flatMap(([template, byMethod]) =>
      Object.entries(byMethod).map(([method, operation]) => [`${method.toUpperCase()} ${template}`, operation] as const),
    ),
  );
});
afterAll(() => gateway.stop());

/** "/jobs/:id" as the document writes it, "/jobs/{id}". */
const template = (url: string) => url.replace(/:([A-Za-z_]+)/g, '{$1}');

/** Each operation's own errors beyond those every route shares (docs/api.md, docs/openai.md). */
const OWN_ERRORS: Record<string, number[]> = {
  getEngine: [404],
  refreshEngine: [404],
  synthesize: [422, 429, 502, 503, 504, 507],
  preview: [422, 502, 503, 504],
  getJob: [404],
  renameJob: [404],
  editJobSentence: [404, 409, 410, 502, 503, 504],
  deleteJob: [404],
  retryJob: [404, 429, 507],
  getJobAudio: [404, 409, 410, 416],
  getJobPeaks: [404, 409, 410],
  getJobTimings: [404, 409, 410],
  getJobSubtitles: [404, 409, 410],
  streamJobEvents: [404, 429],
  streamEvents: [429],
  createExport: [404, 409, 410, 507],
  getExport: [404],
  getExportFile: [404, 409, 416],
  getExportSubtitles: [404, 409],
  deleteExport: [404],
  replaceLexicon: [413],
  changeLexicon: [404, 413],
  deleteLexiconEntry: [404],
  importLexicon: [413],
  createProject: [409, 422],
  getProject: [404],
  getRenderPlan: [404, 422],
  changeProject: [404, 422],
  replaceManuscript: [404],
  deleteProject: [404],
  renderProject: [404, 422, 429, 507],
  exportProject: [404, 409, 410, 507],
  retrieveModel: [404],
  listAudioVoices: [404],
  createSpeech: [404, 429],
  refreshVoiceCatalog: [502],
  getLibraryVoice: [404],
  installVoice: [404, 409, 502, 507],
  removeVoice: [404],
  getProjectDisk: [404],
  getProjectProgress: [404],
  putSettings: [409],
  dismissChapterEdit: [404],
  pauseProject: [404, 429],
  resumeProject: [404, 429],
  cancelProject: [404, 429],
  createCompareSession: [409, 422],
  getCompareSession: [404],
  changeCompareSession: [404, 409, 422],
  deleteCompareSession: [404],
  duplicateCompareSession: [404, 409, 422],
  synthesizeCompareSession: [404, 413, 422, 429, 507],
  changeCompareTake: [404],
  getCompareTakeAudio: [404, 409, 410, 416],
};

describe('the OpenAPI document against the registered routes', () => {
  it('lists every registered route and nothing else, each with a unique operationId', () => {
    const registered = gateway.app.operations.filter((o) => !o.hidden).map((o) => `${o.method} ${template(o.url)}`);
    expect(registered.length).toBeGreaterThan(45);
    expect([...operations.keys()].sort()).toEqual([...registered].sort());
    const ids = [...operations.values()].map((o) => o.operationId);
    for (const [route, operation] of operations)
      expect([route, operation.operationId]).toEqual([route, expect.stringMatching(/^[a-z][A-Za-z]+$/)]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Object.keys(OWN_ERRORS).filter((id) => !ids.includes(id))).toEqual([]);
  });

  it('declares the errors every route can answer, and each route’s own, in its dialect’s shape', () => {
    const missing: string[] = [];
    for (const [route, operation] of operations) {
      const openai = route.split(' ')[1]!.startsWith('/v1/');
      const expected = new Set([403, 500, ...(OWN_ERRORS[operation.operationId!] ?? [])]);
      if (!(Array.isArray(operation.security) && operation.security.length === 0)) expected.add(401);
      if (operation.parameters?.length || operation.requestBody) expected.add(400);
      if (operation.requestBody && !openai) [413, 415].forEach((s) => expected.add(s));
      for (const status of expected) {
        const declared = operation.responses[String(status)];
        if (!declared) {
          missing.push(`${route} (${operation.operationId}): ${status}`);
          continue;
        }
        const error = declared.content?.['application/json']?.schema?.properties?.error?.properties ?? {};
        const shape = openai ? ['code', 'message', 'param', 'type'] : ['code', 'column', 'line', 'message'];
        if (Object.keys(error).sort().join() !== shape.join())
          missing.push(`${route} ${status}: not the ${openai ? 'OpenAI' : 'Orator'} error shape`);
      }
      // the OpenAI dialect answers only OpenAI's statuses
      if (openai)
        for (const status of Object.keys(operation.responses)) expect(['200', '400', '401', '403', '404', '429', '500']).toContain(status);
    }
    expect(missing).toEqual([]);
  });
});
