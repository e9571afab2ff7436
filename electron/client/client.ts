import { Value } from 'typebox/value';
import {
  API,
  isMediaAnswer,
  pathOf,
  queryString,
  type Answer,
  type PreviewBody,
  type Route,
  type RouteArgs,
  type SynthesizeBody,
} from '../contract';
import { inlineAudio, type InlineAudio, type SynthesisResult } from './audio';
import { readJobEvents, type FollowOptions } from './events';
import { GatewayError, isUnauthorized, jsonBody, toApiError } from './errors';

export interface Connection {
  /** Origin of the gateway, e.g. "http://127.0.0.1:5700"; "" means the page's own origin. */
  baseUrl: string;
  apiKey: string;
}

export interface ClientOptions {
  fetch?: typeof fetch | undefined;
  /**
   * Runs when the gateway refuses the client's key (401), before the call throws: the one place
   * where a caller learns that the key is no longer good (the studio goes back to its key prompt).
   */
  onUnauthorized?: ((client: OratorClient) => void) | undefined;
}

/** What a call sends besides the route's parts. */
export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Another credential than the key, for this call only (the admin token); never kept. */
  credential?: string | undefined;
  headers?: Record<string, string>;
}

export type CallArgs<R extends Route> = RouteArgs<R> & CallOptions;
/** A route that needs no parameters, query or body may be called without arguments. */
type ArgsOf<R extends Route> = Partial<CallArgs<R>> extends CallArgs<R> ? [args?: CallArgs<R>] : [args: CallArgs<R>];
type AnyArgs = CallOptions & { params?: Record<string, string | number>; query?: object; body?: unknown };

/**
 * The typed HTTP client of the gateway, derived from the route table: `call(API.getJob, { params })`
 * answers the route's success type, checked against its schema at run time (no code generation, so a
 * strict CSP holds). Holds the key; never logs it or puts it in a URL.
 */
export class OratorClient {
  private readonly fetchImpl: typeof fetch;

  constructor(
    readonly connection: Connection,
    private readonly options: ClientOptions = {},
  ) {
    this.fetchImpl = options.fetch ?? ((...args) => fetch(...args));
  }

  /** The same gateway, transport and hook with another key (after the key was regenerated). */
  withApiKey(apiKey: string): OratorClient {
    return new OratorClient({ ...this.connection, apiKey }, this.options);
  }

  url(path: string): string {
    return `${this.connection.baseUrl}${path}`;
  }

  /** The key, in the header only. */
  get authHeaders(): Record<string, string> {
    return { authorization: `Bearer ${this.connection.apiKey}` };
  }

  /** A route's URL with its parameters and query (for an <audio> element, a link). */
  href<R extends Route>(route: R, ...[args]: ArgsOf<R>): string {
    return this.urlOf(route, args as AnyArgs | undefined);
  }

  /** Calls a route that answers JSON; resolves to its answer, checked against the route's schema (null for a 204). */
  async call<R extends Route>(route: R, ...[args]: ArgsOf<R>): Promise<Answer<R>> {
    const response = await this.request(route, args as AnyArgs | undefined);
    const schema = route.responses[response.status];
    if (!schema || isMediaAnswer(schema)) throw new GatewayError(`The gateway answered ${route.operationId} with ${response.status}.`);
    const body = response.status === 204 ? null : await jsonBody(response);
    if (!Value.Check(schema, body)) throw new GatewayError(`The gateway sent an unexpected ${route.operationId} answer.`);
    return body as Answer<R>;
  }

  /** Calls a route that answers a file (audio, an export, a lexicon file), whole. */
  async blob<R extends Route>(route: R, ...[args]: ArgsOf<R>): Promise<Blob> {
    return (await this.request(route, args as AnyArgs | undefined)).blob();
  }

  /** 200 audio is inline audio; 202 JSON is a queued job. Told apart by status. */
  async synthesize(body: SynthesizeBody, signal?: AbortSignal): Promise<SynthesisResult> {
    const response = await this.request(API.synthesize, { body, signal });
    if (response.status !== 202) return { kind: 'audio', audio: await inlineAudio(response, body.text) };
    const accepted = await jsonBody(response);
    if (!Value.Check(API.synthesize.responses[202], accepted)) throw new GatewayError('The gateway sent an unexpected job receipt.');
    return { kind: 'job', accepted };
  }

  async preview(body: PreviewBody, signal?: AbortSignal): Promise<InlineAudio> {
    // a voice's own sample sentence is not known here: no read-along for it
    return inlineAudio(await this.request(API.preview, { body, signal }), body.text);
  }

  /** Follows a job's events, or every job's, until the stream ends or the signal aborts. */
  async followEvents(options: FollowOptions): Promise<void> {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
    const { signal, jobId } = options;
    const response = jobId
      ? await this.request(API.streamJobEvents, { params: { id: jobId }, headers, signal })
      : await this.request(API.streamEvents, { headers, signal });
    await readJobEvents(response, options);
  }

  private urlOf(route: Route, args: AnyArgs | undefined): string {
    return this.url(pathOf(route, args?.params) + queryString(args?.query));
  }

  /** Sends with the key (or the credential given); any non-2xx answer becomes the ApiError the gateway described. */
  private async request(route: Route, args: AnyArgs = {}): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${args.credential ?? this.connection.apiKey}`, ...args.headers };
    if (args.body !== undefined) headers['content-type'] = 'application/json';
    const body = args.body === undefined ? undefined : JSON.stringify(args.body);
    let response: Response;
    try {
      response = await this.fetchImpl(this.urlOf(route, args), {
        method: route.method,
        headers,
        body,
        signal: args.signal,
        cache: 'no-store',
      });
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      const where = this.connection.baseUrl ? ` at ${this.connection.baseUrl}` : '';
      throw new GatewayError(`Cannot reach the Orator gateway${where}. Is it running?`);
    }
    if (response.ok) return response;
    const error = await toApiError(response);
    if (args.credential === undefined && isUnauthorized(error)) this.options.onUnauthorized?.(this);
    throw error;
  }
}
