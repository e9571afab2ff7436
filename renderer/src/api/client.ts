import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import {
  API_KEY_PATH,
  ApiError,
  AUDIO_HEADERS,
  EngineDetail,
  EngineList,
  ErrorBody,
  EVENTS_PATH,
  Export,
  ExportAccepted,
  exportPath,
  EXPORTS_PATH,
  exportSubtitlesPath,
  Job,
  JOB_EVENT_TYPES,
  JobAccepted,
  jobAudioPath,
  type OutputFormat,
  jobEventsPath,
  JobList,
  jobPath,
  JobPeaks,
  jobPeaksPath,
  inlineTimingsOf,
  JobTimings,
  jobSentencePath,
  jobTimingsPath,
  JOBS_PATH,
  LibraryVoice,
  LEXICON_EXPORT_PATH,
  VOICE_EVENT_TYPES,
  VOICE_LIBRARY_PATH,
  VOICE_LIBRARY_REFRESH_PATH,
  voiceInstallPath,
  VoiceLibraryList,
  voiceLibraryPath,
  type VoiceEvent,
  type VoiceEventType,
  type VoiceLibraryQuery,
  LEXICON_IMPORT_PATH,
  LEXICON_PATH,
  LexiconImportResult,
  LexiconList,
  NewApiKey,
  Project,
  ProjectDisk,
  ProjectList,
  projectPath,
  PROJECTS_PATH,
  RenderResult,
  SETTINGS_PATH,
  SettingsView,
  TTS_ROOT,
  type ChapterPatch,
  type ChapterSplit,
  type ErrorCode,
  type ExportRequest,
  type JobEventType,
  type JobPatch,
  type JobListQuery,
  type LexiconFormat,
  type LexiconImport,
  type LexiconPatch,
  type ManuscriptFile,
  type ProjectCreate,
  type ProjectExportBody,
  type ProjectPatch,
  type PreviewBody,
  type SentenceEdit,
  type SettingsUpdate,
  type SubtitleFormat,
  type SynthesizeBody,
} from './contract';
import { readEventStream } from './sse';

export interface Connection {
  /** Origin of the gateway, e.g. "http://127.0.0.1:5700"; "" means the page's own origin. */
  baseUrl: string;
  apiKey: string;
}

export interface InlineAudio {
  blob: Blob;
  engine: string;
  voice: string;
  durationS: number;
  /** Each sentence's place in the audio and the text (read-along); null without them. */
  timings: JobTimings | null;
  /** Integrated loudness (BS.1770) as the gateway measured it; null for silence. */
  loudnessLufs: number | null;
}

export type SynthesisResult = { kind: 'audio'; audio: InlineAudio } | { kind: 'job'; accepted: JobAccepted };

export interface JobEvent {
  type: JobEventType;
  job: Job;
  /** The event's id (the job's revision): the Last-Event-ID to resume after. */
  id?: string;
}

/** The gateway could not be reached, or answered outside the contract. */
export class GatewayError extends Error {
  override name = 'GatewayError';
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'unauthorized';
}

/** Every response is checked against the contract's schema; no code generation, so a strict CSP holds. */
export function checked<T>(schema: TSchema, value: unknown, what: string): T {
  if (!Value.Check(schema, value)) throw new GatewayError(`The gateway sent an unexpected ${what}.`);
  return value as T;
}

function bearer(credential: string): Record<string, string> {
  return { authorization: `Bearer ${credential}` };
}

/** The typed HTTP client of the /api/v1/tts API. Holds the key; never logs or puts it in a URL. */
export class OratorClient {
  constructor(
    readonly connection: Connection,
    private readonly fetchImpl: typeof fetch = (...args) => fetch(...args),
  ) {}

  /** The same gateway and transport with another key (after the key was regenerated). */
  withApiKey(apiKey: string): OratorClient {
    return new OratorClient({ ...this.connection, apiKey }, this.fetchImpl);
  }

  url(path: string): string {
    return `${this.connection.baseUrl}${path}`;
  }

  /** The key, in the header only. */
  get authHeaders(): Record<string, string> {
    return bearer(this.connection.apiKey);
  }

  async settings() {
    return checked<SettingsView>(SettingsView, await this.json(SETTINGS_PATH), 'settings');
  }

  /**
   * Saves every setting but the bind address; answers like settings(), with what needs a restart.
   * Takes the admin token (the API key gets 403 admin_required); the client never keeps it.
   */
  async putSettings(settings: SettingsUpdate, adminToken: string) {
    const response = await this.send(SETTINGS_PATH, { method: 'PUT', body: JSON.stringify(settings), headers: bearer(adminToken) });
    return checked<SettingsView>(SettingsView, await jsonBody(response), 'settings');
  }

  /** A new random key (admin token); the gateway refuses the old one at once, so callers reconnect with this one. */
  async regenerateApiKey(adminToken: string): Promise<string> {
    const response = await this.send(API_KEY_PATH, { method: 'POST', body: '{}', headers: bearer(adminToken) });
    return checked<NewApiKey>(NewApiKey, await jsonBody(response), 'API key').api_key;
  }

  /** The voice library's catalog with each voice's state (docs/voices.md). */
  async voiceLibrary(query: VoiceLibraryQuery = {}) {
    const params = new URLSearchParams(Object.entries(query).filter(([, value]) => value !== undefined) as [string, string][]);
    const path = params.size > 0 ? `${VOICE_LIBRARY_PATH}?${params}` : VOICE_LIBRARY_PATH;
    return checked<VoiceLibraryList>(VoiceLibraryList, await this.json(path), 'voice library');
  }

  async libraryVoice(id: string) {
    return checked<LibraryVoice>(LibraryVoice, await this.json(voiceLibraryPath(id)), 'library voice');
  }

  /** Queues an install (admin token); `acceptLicense` where the licence asks for it. */
  async installVoice(id: string, acceptLicense: boolean, adminToken: string) {
    const body = JSON.stringify(acceptLicense ? { accept_license: true } : {});
    const response = await this.send(voiceInstallPath(id), { method: 'POST', body, headers: bearer(adminToken) });
    return checked<LibraryVoice>(LibraryVoice, await jsonBody(response), 'library voice');
  }

  /** Cancels an install or removes an installed voice (admin token). */
  async removeVoice(id: string, adminToken: string): Promise<void> {
    await this.send(voiceLibraryPath(id), { method: 'DELETE', headers: bearer(adminToken) });
  }

  /** Reads the catalog again from voice_catalog_url (admin token); 502 keeps the last one. */
  async refreshVoiceLibrary(adminToken: string) {
    const response = await this.send(VOICE_LIBRARY_REFRESH_PATH, { method: 'POST', headers: bearer(adminToken) });
    return checked<VoiceLibraryList>(VoiceLibraryList, await jsonBody(response), 'voice library');
  }

  async listEngines() {
    return checked<EngineList>(EngineList, await this.json(`${TTS_ROOT}/engines`), 'engine list');
  }

  async engine(id: string) {
    return checked<EngineDetail>(EngineDetail, await this.json(`${TTS_ROOT}/engines/${encodeURIComponent(id)}`), 'engine');
  }

  /** 200 audio/wav is inline audio; 202 JSON is a queued job. Told apart by status and type. */
  async synthesize(body: SynthesizeBody, signal?: AbortSignal): Promise<SynthesisResult> {
    const response = await this.send(`${TTS_ROOT}/synthesize`, { method: 'POST', body: JSON.stringify(body), signal });
    if (response.status === 202) {
      return { kind: 'job', accepted: checked<JobAccepted>(JobAccepted, await response.json(), 'job receipt') };
    }
    return { kind: 'audio', audio: await inlineAudio(response, body.text) };
  }

  async preview(body: PreviewBody, signal?: AbortSignal): Promise<InlineAudio> {
    // a voice's own sample sentence is not known here: no read-along for it
    return inlineAudio(await this.send(`${TTS_ROOT}/preview`, { method: 'POST', body: JSON.stringify(body), signal }), body.text);
  }

  async job(id: string) {
    return checked<Job>(Job, await this.json(jobPath(id)), 'job');
  }

  /** A page of the job list: the query's fields are the gateway's (JobListQuery). */
  async listJobs(query: JobListQuery = {}) {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, String(value));
    const search = params.size > 0 ? `?${params}` : '';
    return checked<JobList>(JobList, await this.json(`${JOBS_PATH}${search}`), 'job list');
  }

  /** Gives a job a title of the user's; answers the job as it is now. */
  async renameJob(id: string, title: string) {
    const response = await this.send(jobPath(id), { method: 'PATCH', body: JSON.stringify({ title } satisfies JobPatch) });
    return checked<Job>(Job, await jsonBody(response), 'job');
  }

  /** Gives one sentence of a finished job new text; its chunk is synthesized again and spliced in. */
  async editSentence(id: string, sentence: number, text: string) {
    const response = await this.send(jobSentencePath(id, sentence), {
      method: 'PUT',
      body: JSON.stringify({ text } satisfies SentenceEdit),
    });
    return checked<Job>(Job, await jsonBody(response), 'job');
  }

  /**
   * Cancels a running job or deletes a finished one. Returns the job as it is afterwards, or
   * null when it is gone.
   */
  async deleteJob(id: string): Promise<Job | null> {
    const response = await this.send(jobPath(id), { method: 'DELETE' });
    if (response.status === 204) return null;
    const body: unknown = await response.json().catch(() => null);
    if (Value.Check(Job, body)) return body;
    return null;
  }

  /** Queues a failed job again as a new job, on the gateway (which still has its text). */
  async retryJob(id: string) {
    const response = await this.send(`${jobPath(id)}/retry`, { method: 'POST' });
    return checked<JobAccepted>(JobAccepted, await response.json(), 'job receipt');
  }

  /** A finished job's peaks; with `columns`, the coarsest resolution that still fills that many (GET /jobs/{id}/peaks). */
  async peaks(id: string, columns?: number) {
    const query = columns === undefined ? '' : `?columns=${Math.max(1, Math.round(columns))}`;
    return checked<JobPeaks>(JobPeaks, await this.json(jobPeaksPath(id) + query), 'peaks');
  }

  /** Each sentence's start and end in a finished job's audio (GET /jobs/{id}/timings). */
  async timings(id: string) {
    return checked<JobTimings>(JobTimings, await this.json(jobTimingsPath(id)), 'timings');
  }

  /** A finished job's audio: in its own format, or encoded in `format` as it is sent (docs/formats.md). */
  jobAudioUrl(id: string, format?: OutputFormat): string {
    return this.url(jobAudioQuery(id, format));
  }

  /** The whole audio of a finished job, for downloads and for players that cannot stream. */
  async jobAudio(id: string, signal?: AbortSignal, format?: OutputFormat): Promise<Blob> {
    return (await this.send(jobAudioQuery(id, format), { signal })).blob();
  }

  /**
   * Follows job events (all jobs, or one) until the stream ends or the signal aborts; with
   * `lastEventId` (every job's), the gateway first sends each job changed after that event.
   * `onOpen` runs once the stream is accepted, so callers can refresh what they missed.
   */
  async followEvents(options: {
    jobId?: string;
    lastEventId?: string;
    signal: AbortSignal;
    onOpen?: () => void;
    onEvent: (event: JobEvent) => void;
    /** Voice installs, on the stream of all events. */
    onVoiceEvent?: (event: VoiceEvent) => void;
  }) {
    const path = options.jobId ? jobEventsPath(options.jobId) : EVENTS_PATH;
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
    const response = await this.send(path, { headers, signal: options.signal });
    if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
      throw new GatewayError('The gateway did not answer with an event stream.');
    }
    options.onOpen?.();
    await readEventStream(response.body, (message) => {
      const isJob = (JOB_EVENT_TYPES as readonly string[]).includes(message.event);
      if (!isJob && !(VOICE_EVENT_TYPES as readonly string[]).includes(message.event)) return;
      let data: unknown;
      try {
        data = JSON.parse(message.data);
      } catch {
        return; // one malformed event should not end the stream
      }
      if (isJob && Value.Check(Job, data)) options.onEvent({ type: message.event as JobEventType, job: data, id: message.id });
      else if (!isJob && Value.Check(LibraryVoice, data)) options.onVoiceEvent?.({ type: message.event as VoiceEventType, voice: data });
    });
  }

  /** Asks for an audiobook of finished jobs (docs/audiobook.md); it is made in the background. */
  async createExport(body: ExportRequest) {
    const response = await this.send(EXPORTS_PATH, { method: 'POST', body: JSON.stringify(body) });
    return checked<ExportAccepted>(ExportAccepted, await jsonBody(response), 'export receipt');
  }

  async export(id: string) {
    return checked<Export>(Export, await this.json(exportPath(id)), 'export');
  }

  /** A finished export's file (M4B, MP3 or ZIP). */
  async exportFile(id: string, signal?: AbortSignal): Promise<Blob> {
    return (await this.send(`${exportPath(id)}/file`, { signal })).blob();
  }

  /** A finished export's captions, one cue per sentence in the book's time. */
  async exportSubtitles(id: string, format: SubtitleFormat): Promise<Blob> {
    return (await this.send(exportSubtitlesPath(id, format), {})).blob();
  }

  async lexicon() {
    return checked<LexiconList>(LexiconList, await this.json(LEXICON_PATH), 'lexicon');
  }

  /** Adds or replaces entries (by grapheme, language, voice and case rule) and deletes entries by id. */
  async patchLexicon(patch: LexiconPatch) {
    const response = await this.send(LEXICON_PATH, { method: 'PATCH', body: JSON.stringify(patch) });
    return checked<LexiconList>(LexiconList, await jsonBody(response), 'lexicon');
  }

  async importLexicon(body: LexiconImport) {
    const response = await this.send(LEXICON_IMPORT_PATH, { method: 'POST', body: JSON.stringify(body) });
    return checked<LexiconImportResult>(LexiconImportResult, await jsonBody(response), 'import result');
  }

  /** The lexicon as a PLS (of one language) or CSV file. */
  async exportLexicon(format: LexiconFormat, language?: string): Promise<Blob> {
    const params = new URLSearchParams({ format, ...(language ? { language } : {}) });
    return (await this.send(`${LEXICON_EXPORT_PATH}?${params}`, {})).blob();
  }

  async projects() {
    return checked<ProjectList>(ProjectList, await this.json(PROJECTS_PATH), 'project list');
  }

  async project(id: string) {
    return checked<Project>(Project, await this.json(projectPath(id)), 'project');
  }

  /** What the project's audio takes on disk, estimated before a render or an export, and what is free. */
  async projectDisk(id: string) {
    return checked<ProjectDisk>(ProjectDisk, await this.json(`${projectPath(id)}/disk`), 'disk estimate');
  }

  /** A new project from a manuscript file's text and name, cut into chapters by the gateway. */
  async createProject(body: ProjectCreate) {
    const response = await this.send(PROJECTS_PATH, { method: 'POST', body: JSON.stringify(body) });
    return checked<Project>(Project, await jsonBody(response), 'project');
  }

  async patchProject(id: string, patch: ProjectPatch) {
    const response = await this.send(projectPath(id), { method: 'PATCH', body: JSON.stringify(patch) });
    return checked<Project>(Project, await jsonBody(response), 'project');
  }

  async replaceManuscript(id: string, file: ManuscriptFile) {
    const response = await this.send(`${projectPath(id)}/manuscript`, { method: 'PUT', body: JSON.stringify(file) });
    return checked<Project>(Project, await jsonBody(response), 'project');
  }

  async deleteProject(id: string): Promise<void> {
    await this.send(projectPath(id), { method: 'DELETE' });
  }

  /** Queues the chapters whose audio is missing or out of date; says which were queued and which stand. */
  async renderProject(id: string) {
    const response = await this.send(`${projectPath(id)}/render`, { method: 'POST' });
    return checked<RenderResult>(RenderResult, await jsonBody(response), 'render result');
  }

  /** Forgets a stale sentence edit of a chapter (its sentence is no longer in the manuscript). */
  async dismissEdit(id: string, chapter: number, edit: number) {
    const response = await this.send(`${projectPath(id)}/chapters/${chapter}/edits/${edit}`, { method: 'DELETE' });
    return checked<Project>(Project, await jsonBody(response), 'project');
  }

  /** Pauses, resumes or cancels the project's render (docs/projects.md). */
  async projectAction(id: string, action: 'pause' | 'resume' | 'cancel') {
    const response = await this.send(`${projectPath(id)}/${action}`, { method: 'POST' });
    return checked<Project>(Project, await jsonBody(response), 'project');
  }

  /** Renames a chapter, or leaves it out of render and export (docs/projects.md, "Chapters"). */
  async changeChapter(id: string, index: number, patch: ChapterPatch) {
    const response = await this.send(`${projectPath(id)}/chapters/${index}`, { method: 'PATCH', body: JSON.stringify(patch) });
    return checked<Project>(Project, await jsonBody(response), 'project');
  }

  /** Merges a chapter with the next (`merge`), or splits it before a paragraph (`split`). */
  async rearrangeChapter(id: string, index: number, change: { merge: true } | { split: ChapterSplit }) {
    const [action, body] = 'merge' in change ? ['merge', {}] : ['split', change.split];
    const response = await this.send(`${projectPath(id)}/chapters/${index}/${action}`, { method: 'POST', body: JSON.stringify(body) });
    return checked<Project>(Project, await jsonBody(response), 'project');
  }

  /** An audiobook of a rendered project, made in the background like any export. */
  async exportProject(id: string, body: ProjectExportBody) {
    const response = await this.send(`${projectPath(id)}/export`, { method: 'POST', body: JSON.stringify(body) });
    return checked<ExportAccepted>(ExportAccepted, await jsonBody(response), 'export receipt');
  }

  /** GETs a JSON answer (for clients of one route group, such as compare-client.ts). */
  async json(path: string): Promise<unknown> {
    return jsonBody(await this.send(path, {}));
  }

  /** Sends with the key; any non-2xx answer becomes the ApiError the gateway described. */
  async send(path: string, init: RequestInit & { signal?: AbortSignal | undefined }): Promise<Response> {
    const headers: Record<string, string> = { ...this.authHeaders, ...(init.headers as Record<string, string> | undefined) };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await this.fetchImpl(this.url(path), { ...init, headers, cache: 'no-store' });
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new GatewayError(
        `Cannot reach the Orator gateway${this.connection.baseUrl ? ` at ${this.connection.baseUrl}` : ''}. Is it running?`,
      );
    }
    if (!response.ok) throw await toApiError(response);
    return response;
  }
}

export function jsonBody(response: Response): Promise<unknown> {
  return response.json().catch(() => {
    throw new GatewayError('The gateway sent a body that is not JSON.');
  });
}

async function toApiError(response: Response): Promise<ApiError | GatewayError> {
  const body: unknown = await response.json().catch(() => null);
  const retryAfter = Number(response.headers.get('retry-after') ?? NaN);
  const details = Number.isFinite(retryAfter) ? { retryAfterS: retryAfter } : {};
  if (Value.Check(ErrorBody, body)) return new ApiError(body.error.code as ErrorCode, body.error.message, details);
  return new GatewayError(`The gateway answered ${response.status} ${response.statusText}.`);
}

/** `text`: the text sent, which the timings header points into. */
async function inlineAudio(response: Response, text: string | undefined): Promise<InlineAudio> {
  if (!response.headers.get('content-type')?.startsWith('audio/')) throw new GatewayError('The gateway did not answer with audio.');
  const header = Number(response.headers.get(AUDIO_HEADERS.duration));
  const durationS = Number.isFinite(header) ? header : 0;
  const loudness = response.headers.get(AUDIO_HEADERS.loudness);
  return {
    blob: await response.blob(),
    engine: response.headers.get(AUDIO_HEADERS.engine) ?? '',
    voice: response.headers.get(AUDIO_HEADERS.voice) ?? '',
    durationS,
    loudnessLufs: loudness !== null && Number.isFinite(Number(loudness)) ? Number(loudness) : null,
    timings: text === undefined ? null : inlineTimingsOf(response.headers.get(AUDIO_HEADERS.timings), text, durationS),
  };
}

const jobAudioQuery = (id: string, format: OutputFormat | undefined) => jobAudioPath(id) + (format ? `?format=${format}` : '');
