import { Type, type Static } from 'typebox';

/**
 * Bounds of the pronunciation lexicon: the entries are kept in memory and written whole at each
 * change. Bodies are bounded by the gateway's body limit, like every request.
 */
export const LEXICON_LIMITS = {
  entries: 5_000,
  graphemeChars: 100,
  spokenChars: 300,
} as const;

/**
 * Phoneme alphabets an entry may use: "x-espeak" is eSpeak NG's phoneme mnemonics (what
 * `espeak-ng -x` prints), given to eSpeak as [[…]]; "ipa" is kept (PLS files carry it) and used
 * by engines that take IPA; other engines speak the entry's alias.
 */
export const PhonemeAlphabet = Type.Union([Type.Literal('x-espeak'), Type.Literal('ipa')]);
export type PhonemeAlphabet = Static<typeof PhonemeAlphabet>;

const NO_CONTROLS = '^[^\\u0000-\\u001f\\u007f-\\u009f]*[^\\s\\u0000-\\u001f\\u007f-\\u009f][^\\u0000-\\u001f\\u007f-\\u009f]*$';
/** A BCP 47 tag in its common shape: "en", "en-GB", "pt-BR", "zh-Hans". */
export const LANGUAGE_TAG = '^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$';

const entryFields = {
  grapheme: Type.String({
    minLength: 1,
    maxLength: LEXICON_LIMITS.graphemeChars,
    pattern: NO_CONTROLS,
    description: 'The word or phrase as written; whitespace in it matches any run of whitespace',
  }),
  alias: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: LEXICON_LIMITS.spokenChars,
      pattern: NO_CONTROLS,
      description: 'What to say instead (plain text)',
    }),
  ),
  phoneme: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: LEXICON_LIMITS.spokenChars,
      pattern: NO_CONTROLS,
      description: 'How to say it in `alphabet`; used by engines that take that alphabet, else `alias` is spoken',
    }),
  ),
  alphabet: Type.Optional(PhonemeAlphabet),
  language: Type.String({
    pattern: LANGUAGE_TAG,
    maxLength: 35,
    description: 'BCP 47 tag; "en" applies to every English voice, "en-GB" to British ones only',
  }),
  voice: Type.Optional(Type.String({ minLength: 3, maxLength: 200, description: 'Only for this voice id ("espeak-ng:en-us")' })),
  case_sensitive: Type.Optional(Type.Boolean({ default: false, description: 'Match the letter case exactly (default: any case)' })),
  whole_word: Type.Optional(
    Type.Boolean({ default: true, description: 'Match only where no letter or digit touches either end (default true)' }),
  ),
};

/** An entry as a client sends it: a grapheme with an alias, a phoneme, or both. */
export const LexiconEntryInput = Type.Object(entryFields, { additionalProperties: false });
export type LexiconEntryInput = Static<typeof LexiconEntryInput>;

export const LexiconEntry = Type.Object({
  id: Type.String(),
  ...entryFields,
  alphabet: Type.Optional(PhonemeAlphabet),
  case_sensitive: Type.Boolean(),
  whole_word: Type.Boolean(),
});
export type LexiconEntry = Static<typeof LexiconEntry>;

export const LexiconList = Type.Object({ entries: Type.Array(LexiconEntry) });
export type LexiconList = Static<typeof LexiconList>;

export const LexiconReplace = Type.Object(
  // the count is checked with the rest of the lexicon (413 lexicon_too_large); the body limit bounds it here
  { entries: Type.Array(LexiconEntryInput) },
  { additionalProperties: false },
);
export type LexiconReplace = Static<typeof LexiconReplace>;

export const LexiconPatch = Type.Object(
  {
    entries: Type.Optional(
      Type.Array(LexiconEntryInput, {
        description: 'Added, or replacing the entry with the same grapheme, language, voice and case rule',
      }),
    ),
    delete: Type.Optional(Type.Array(Type.String(), { maxItems: LEXICON_LIMITS.entries, description: 'Ids of entries to remove' })),
  },
  { additionalProperties: false },
);
export type LexiconPatch = Static<typeof LexiconPatch>;

/** Which entries a GET, DELETE or export covers; none given: all. Unknown query parameters are ignored, as everywhere. */
export const LexiconScope = Type.Object({
  language: Type.Optional(
    Type.String({ pattern: LANGUAGE_TAG, maxLength: 35, description: '"en" covers "en-GB" (but not in PLS exports)' }),
  ),
  voice: Type.Optional(Type.String({ minLength: 3, maxLength: 200 })),
});
export type LexiconScope = Static<typeof LexiconScope>;

export const LexiconFormat = Type.Union([Type.Literal('pls'), Type.Literal('csv')]);
export type LexiconFormat = Static<typeof LexiconFormat>;

export const LexiconExportQuery = Type.Object({ format: LexiconFormat, ...LexiconScope.properties }, { additionalProperties: false });
export type LexiconExportQuery = Static<typeof LexiconExportQuery>;

/** A lexicon file to import, its text in a JSON string: bodies are JSON, bounded by the gateway's body limit. */
export const LexiconImport = Type.Object(
  {
    format: LexiconFormat,
    data: Type.String({ description: "The file's text: a PLS document or CSV with a header row" }),
    mode: Type.Optional(
      Type.Union([Type.Literal('merge'), Type.Literal('replace')], {
        default: 'merge',
        description: '"merge": add, replacing entries with the same key; "replace": the file becomes the whole lexicon',
      }),
    ),
    language: Type.Optional(Type.String({ pattern: LANGUAGE_TAG, maxLength: 35, description: 'For CSV rows without a language' })),
  },
  { additionalProperties: false },
);
export type LexiconImport = Static<typeof LexiconImport>;

export const LexiconEntryParams = Type.Object({ id: Type.String() });

export const LexiconImportResult = Type.Object({
  added: Type.Integer(),
  replaced: Type.Integer(),
  total: Type.Integer(),
});
export type LexiconImportResult = Static<typeof LexiconImportResult>;

/** Media types of the lexicon files. */
export const LEXICON_MEDIA_TYPES = { pls: 'application/pls+xml', csv: 'text/csv' } as const;
