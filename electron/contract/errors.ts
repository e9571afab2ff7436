import { Type, type Static } from 'typebox';

/** Every error code the API can answer with; the HTTP status of each is fixed here. */
export const ERROR_STATUS = {
  invalid_json: 400,
  invalid_request: 400,
  invalid_executable: 400,
  invalid_models_dir: 400,
  invalid_lexicon: 400,
  invalid_ssml: 400,
  unauthorized: 401,
  forbidden_host: 403,
  admin_required: 403,
  not_found: 404,
  engine_not_found: 404,
  job_not_found: 404,
  project_not_found: 404,
  session_not_found: 404,
  take_not_found: 404,
  timings_unavailable: 404,
  export_not_found: 404,
  voice_not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  job_not_finished: 409,
  job_failed: 409,
  format_unavailable: 409,
  chunk_in_progress: 409,
  too_many_projects: 409,
  project_not_rendered: 409,
  too_many_sessions: 409,
  takes_would_be_replaced: 409,
  take_not_ready: 409,
  export_not_finished: 409,
  export_failed: 409,
  license_not_accepted: 409,
  voice_not_pinned: 409,
  checksum_not_listed: 409,
  setting_locked: 409,
  audio_expired: 410,
  audio_missing: 410,
  job_gone: 410,
  text_too_long: 413,
  payload_too_large: 413,
  lexicon_too_large: 413,
  too_many_chapters: 413,
  manuscript_too_large: 413,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  unknown_voice: 422,
  unknown_engine: 422,
  queue_full: 429,
  too_many_streams: 429,
  too_many_exports: 429,
  too_many_edits: 429,
  headers_too_large: 431,
  internal_error: 500,
  engine_error: 502,
  catalog_unreachable: 502,
  voice_source_unreachable: 502,
  engine_unavailable: 503,
  engine_timeout: 504,
  insufficient_storage: 507,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'snake_case machine-readable code' }),
      message: Type.String({ description: 'A human sentence' }),
      line: Type.Optional(Type.Integer({ minimum: 1, description: 'invalid_ssml: the line (from 1) where the markup is wrong' })),
      column: Type.Optional(Type.Integer({ minimum: 1, description: 'invalid_ssml: the column (from 1, in code points) on that line' })),
    }),
  },
  { $id: 'ErrorBody' },
);
export type ErrorBody = Static<typeof ErrorBody>;

export interface ApiErrorDetails {
  /** When to ask again, for errors that pass by themselves (a full queue): HTTP's Retry-After. */
  retryAfterS?: number;
  /** Where in the text sent the error is (invalid_ssml): answered as `line` and `column`. */
  position?: TextPosition;
  /** The request field at fault, where a service finds it (OpenAI's dialect answers it as `param`). */
  field?: string;
  cause?: unknown;
}

/** A place in a text sent, both from 1; columns count code points. */
export interface TextPosition {
  line: number;
  column: number;
}

/**
 * An API error: thrown by services, answered by the gateway, rebuilt by the renderer's client. It
 * carries what the product knows (a code, a sentence, when to retry); the gateway turns that into
 * a status and headers.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly retryAfterS: number | undefined;
  readonly position: TextPosition | undefined;
  readonly field: string | undefined;
  constructor(code: ErrorCode, message: string, { retryAfterS, position, field, cause }: ApiErrorDetails = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'ApiError';
    this.code = code;
    this.retryAfterS = retryAfterS;
    this.position = position;
    this.field = field;
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message, ...this.position } };
  }
}
