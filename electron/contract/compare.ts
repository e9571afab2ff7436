import { Type, type Static } from 'typebox';
import { JobTimings, TITLE_MAX_CHARS } from './jobs';
import { prosody } from './projects';

/** Bounds of compare sessions (docs/api.md#compare-sessions). */
export const COMPARE_LIMITS = {
  /** Sessions in one data folder. */
  sessions: 200,
  /** Voices of one session. */
  voices: 24,
  /** Texts of one session. */
  texts: 10,
  /** All the texts of a session together (code points): every voice speaks each of them. */
  textChars: 5_000,
  /** A session's name (code points). */
  nameChars: TITLE_MAX_CHARS,
  /** A take's note (code points). */
  noteChars: 500,
  /** Sentences rated per take. */
  sentenceRatings: 1_000,
  /** Pairwise choices kept per session. */
  pairs: 2_000,
} as const;

const Rating = Type.Integer({ minimum: 1, maximum: 5, description: '1 to 5 stars' });
const NullableRating = Type.Union([Rating, Type.Null()]);
const Name = Type.String({ minLength: 1, description: `1 to ${COMPARE_LIMITS.nameChars} characters, one line` });
const Texts = Type.Array(Type.String({ minLength: 1 }), {
  minItems: 1,
  maxItems: COMPARE_LIMITS.texts,
  description: `1 to ${COMPARE_LIMITS.texts} texts, ${COMPARE_LIMITS.textChars} characters together; every voice speaks each`,
});
const Voices = Type.Array(Type.String({ minLength: 1 }), {
  minItems: 1,
  maxItems: COMPARE_LIMITS.voices,
  description: `1 to ${COMPARE_LIMITS.voices} voice ids, each once`,
});

/** One pairwise choice: of takes `a` and `b`, the listener preferred `winner`. */
export const PairChoice = Type.Object(
  { a: Type.String(), b: Type.String(), winner: Type.String({ description: '`a` or `b`' }) },
  { additionalProperties: false },
);
export type PairChoice = Static<typeof PairChoice>;

const sessionFields = {
  name: Type.Optional(Name),
  texts: Type.Optional(Texts),
  voices: Type.Optional(Voices),
  rate: Type.Optional(prosody('rate')),
  pitch: Type.Optional(prosody('pitch')),
  volume: Type.Optional(prosody('volume')),
  blind: Type.Optional(
    Type.Boolean({ description: 'Takes listed in a random order over the whole session, voices hidden until revealed' }),
  ),
  loudness_match: Type.Optional(
    Type.Boolean({ description: "The studio plays every take at one loudness (the session remembers the listener's choice)" }),
  ),
};

export const CompareSessionCreate = Type.Object(
  { ...sessionFields, texts: Texts, voices: Voices },
  { additionalProperties: false, description: 'A new session; its name defaults to "Session" and the time' },
);
export type CompareSessionCreate = Static<typeof CompareSessionCreate>;

export const CompareSessionPatch = Type.Object(
  {
    ...sessionFields,
    revealed: Type.Optional(Type.Boolean({ description: "A blind session's voices shown" })),
    pairs: Type.Optional(
      Type.Array(PairChoice, { maxItems: COMPARE_LIMITS.pairs, description: 'Every pairwise choice so far (replaces the list)' }),
    ),
    replace_takes: Type.Optional(
      Type.Boolean({
        description:
          'Allow a change of texts, voices or prosody that drops takes with audio or a verdict; without it: 409 takes_would_be_replaced',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CompareSessionPatch = Static<typeof CompareSessionPatch>;

export const CompareDuplicate = Type.Object({ name: Type.Optional(Name) }, { additionalProperties: false });
export type CompareDuplicate = Static<typeof CompareDuplicate>;

export const CompareTakePatch = Type.Object(
  {
    rating: Type.Optional(NullableRating),
    note: Type.Optional(Type.String({ description: `0 to ${COMPARE_LIMITS.noteChars} characters, one line` })),
    sentence_ratings: Type.Optional(
      Type.Array(NullableRating, { maxItems: COMPARE_LIMITS.sentenceRatings, description: 'By sentence index (null: not rated)' }),
    ),
  },
  { additionalProperties: false },
);
export type CompareTakePatch = Static<typeof CompareTakePatch>;

export const TAKE_STATUSES = ['pending', 'running', 'ready', 'failed'] as const;
export type TakeStatus = (typeof TAKE_STATUSES)[number];

export const CompareTake = Type.Object({
  take_id: Type.String(),
  text_index: Type.Integer({ description: "Which of the session's texts it speaks" }),
  voice: Type.String(),
  status: Type.Enum(TAKE_STATUSES, {
    description:
      '"pending": not synthesized yet (or its job was deleted); "running": its job is queued or running; "ready": its audio is kept with the session',
  }),
  progress: Type.Object({ done: Type.Integer(), total: Type.Integer() }, { description: "Its job's chunks" }),
  job_id: Type.Optional(Type.String()),
  error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
  engine: Type.Optional(Type.String()),
  duration_s: Type.Optional(Type.Number()),
  loudness_lufs: Type.Optional(
    Type.Union([Type.Number(), Type.Null()], { description: 'Integrated loudness (BS.1770); null for silence' }),
  ),
  timings: Type.Optional(JobTimings),
  rating: NullableRating,
  note: Type.String(),
  sentence_ratings: Type.Array(NullableRating),
});
export type CompareTake = Static<typeof CompareTake>;

const summaryFields = {
  session_id: Type.String(),
  name: Type.String(),
  blind: Type.Boolean(),
  revealed: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
};

export const CompareSession = Type.Object({
  ...summaryFields,
  texts: Type.Array(Type.String()),
  voices: Type.Array(Type.String()),
  rate: Type.Number(),
  pitch: Type.Number(),
  volume: Type.Number(),
  loudness_match: Type.Boolean(),
  order: Type.Array(Type.String(), { description: 'Take ids in listening order: random over the whole session when blind' }),
  takes: Type.Array(CompareTake),
  pairs: Type.Array(PairChoice),
});
export type CompareSession = Static<typeof CompareSession>;

export const CompareSessionSummary = Type.Object({
  ...summaryFields,
  voice_count: Type.Integer(),
  text_count: Type.Integer(),
  take_count: Type.Integer(),
  ready_count: Type.Integer(),
});
export type CompareSessionSummary = Static<typeof CompareSessionSummary>;

export const CompareSessionList = Type.Object({ sessions: Type.Array(CompareSessionSummary) });
export type CompareSessionList = Static<typeof CompareSessionList>;

export const CompareSessionParams = Type.Object({ id: Type.String() });
export const CompareTakeParams = Type.Object({ id: Type.String(), take: Type.String() });
