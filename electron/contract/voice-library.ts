/**
 * The voice library: Orator's catalog format (a JSON file it ships, or reads from
 * voice_catalog_url), the manifest an installed voice carries, and the routes' answers
 * (docs/voices.md).
 */
import { Type, type Static } from 'typebox';

/** A catalog id: also the voice's folder name in the models folder, so no separators, no dot first. */
export const CATALOG_ID_PATTERN = '^[\\p{L}\\p{N}][\\p{L}\\p{N}_.-]{0,127}$';
const CATALOG_ID = new RegExp(CATALOG_ID_PATTERN, 'u');
export const isCatalogId = (id: string) => CATALOG_ID.test(id) && !id.includes('..');

/** Model families: each runs on the bundled sherpa-onnx. A component (a vocoder) is what others require. */
export const VOICE_ENGINES = ['piper', 'kokoro', 'matcha', 'component'] as const;
export const VOICE_QUALITIES = ['x_low', 'low', 'medium', 'high'] as const;
export const ARCHIVE_KINDS = ['tar.bz2', 'tar.gz'] as const;
export type ArchiveKind = (typeof ARCHIVE_KINDS)[number];

const Hex = (length: number) => Type.String({ pattern: `^[0-9a-f]{${length}}$` });
const Bytes = Type.Integer({ minimum: 0, maximum: 2 ** 45 });

export const VoiceLicense = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64, description: 'SPDX id where known (Apache-2.0, CC-BY-NC-SA-4.0), else "unknown"' }),
    url: Type.String({ maxLength: 2048, description: 'Where the licence or the model card says it' }),
    accept_required: Type.Boolean({ description: 'Non-commercial, research-only or unknown: installing needs {"accept_license": true}' }),
  },
  { additionalProperties: false },
);
export type VoiceLicense = Static<typeof VoiceLicense>;

/**
 * One file of a voice. `url` may be relative to the catalog's own URL (a LAN mirror is a folder).
 * A file the catalog's generator could not pin has null size and hash: it installs only when
 * `checksums` names its release's checksum list, read at install time (docs/voices.md).
 */
export const CatalogFile = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048 }),
    size_bytes: Type.Union([Bytes, Type.Null()]),
    sha256: Type.Optional(Type.Union([Hex(64), Type.Null()])),
    md5: Type.Optional(Type.Union([Hex(32), Type.Null()])),
    archive: Type.Optional(Type.Enum(ARCHIVE_KINDS)),
    unpacked_bytes: Type.Optional(Bytes),
    checksums: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2048,
        description:
          'A checksum list (`<name>\\t<sha256>` lines) naming this file by the last segment of its URL: its sha256 when the catalog pins none',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CatalogFile = Static<typeof CatalogFile>;

export const CatalogVoice = Type.Object(
  {
    id: Type.String({ pattern: CATALOG_ID_PATTERN }),
    engine: Type.Enum(VOICE_ENGINES),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    language: Type.String({ minLength: 2, maxLength: 35, description: 'BCP 47' }),
    quality: Type.Enum(VOICE_QUALITIES),
    speakers: Type.Integer({ minimum: 1, maximum: 10_000 }),
    /** A speaker of a multi-speaker model it requires (Kokoro): the speaker's number in it. */
    speaker: Type.Optional(Type.Integer({ minimum: 0, maximum: 9_999 })),
    /** The names of a model's speakers, by number. */
    speaker_names: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 10_000 })),
    license: VoiceLicense,
    size_bytes: Type.Union([Bytes, Type.Null()]),
    files: Type.Array(CatalogFile, { maxItems: 16 }),
    requires: Type.Optional(Type.Array(Type.String({ pattern: CATALOG_ID_PATTERN }), { maxItems: 8 })),
  },
  { additionalProperties: false },
);
export type CatalogVoice = Static<typeof CatalogVoice>;

export const Catalog = Type.Object(
  {
    version: Type.Literal(1),
    ref: Type.Optional(Type.String({ maxLength: 500, description: 'The pinned sources the catalog was made from' })),
    generated_at: Type.Optional(Type.String({ maxLength: 40 })),
    voices: Type.Array(CatalogVoice, { maxItems: 20_000 }),
  },
  { additionalProperties: true },
);
export type Catalog = Static<typeof Catalog>;

/** Where an installed file's hash came from: pinned in the catalog, or its release's checksum list read at install. */
export const HashSource = Type.Union([
  Type.Object({ kind: Type.Literal('catalog') }),
  Type.Object({
    kind: Type.Literal('checksum_list'),
    url: Type.String({ description: 'The checksum list read' }),
    fetched_at: Type.String({ description: 'When it was read (ISO 8601)' }),
  }),
]);
export type HashSource = Static<typeof HashSource>;

/** Written last into an installed voice's folder: what was installed, from where, under which licence. */
export const VOICE_MANIFEST_FILE = 'orator-voice.json';
export const VoiceManifest = Type.Object({
  id: Type.String(),
  engine: Type.String(),
  name: Type.String(),
  language: Type.String(),
  catalog: Type.Object({ url: Type.String(), ref: Type.Optional(Type.String()) }),
  license: VoiceLicense,
  files: Type.Array(
    Type.Object({
      url: Type.String(),
      size_bytes: Type.Integer(),
      sha256: Type.Optional(Type.String()),
      md5: Type.Optional(Type.String()),
      /** Absent in manifests written before checksum lists: pinned in the catalog. */
      hash_source: Type.Optional(HashSource),
    }),
  ),
  speaker_names: Type.Optional(Type.Array(Type.String())),
  /** Matcha: the vocoder model, relative to this folder (it lives in the folder of a component). */
  vocoder: Type.Optional(Type.String()),
  installed_at: Type.String(),
});
export type VoiceManifest = Static<typeof VoiceManifest>;

export const VERIFICATIONS = ['catalog', 'checksum_list', 'none'] as const;
export type Verification = (typeof VERIFICATIONS)[number];

export const VOICE_STATES = ['available', 'queued', 'installing', 'installed', 'failed'] as const;
export type VoiceState = (typeof VOICE_STATES)[number];

export const LibraryVoice = Type.Object({
  id: Type.String(),
  engine: Type.String(),
  name: Type.String(),
  language: Type.String(),
  quality: Type.String(),
  speakers: Type.Integer(),
  size_bytes: Type.Union([Type.Integer(), Type.Null()], { description: 'Download size with what it requires; null when not pinned' }),
  license: VoiceLicense,
  pinned: Type.Boolean({ description: 'Every file has a size and a hash in the catalog' }),
  verification: Type.Enum(VERIFICATIONS, {
    description:
      'How its files are verified: hashes pinned in the catalog; some taken from their release checksum list at install; none (not installable)',
  }),
  /** Once installed: where its hashes came from (a checksum list when any file's came from one). */
  hash_source: Type.Optional(HashSource),
  state: Type.Enum(VOICE_STATES),
  bytes_done: Type.Optional(Type.Integer()),
  bytes_total: Type.Optional(Type.Integer()),
  error: Type.Optional(Type.String()),
  requires: Type.Optional(Type.Array(Type.String())),
  voice_id: Type.Optional(Type.String({ description: 'Once installed: the voice id to synthesize with' })),
});
export type LibraryVoice = Static<typeof LibraryVoice>;

export const CatalogInfo = Type.Object({
  url: Type.String({ description: 'Where the catalog was read from' }),
  ref: Type.Union([Type.String(), Type.Null()]),
  updated_at: Type.String({ description: 'When it was last read successfully' }),
});
export type CatalogInfo = Static<typeof CatalogInfo>;

export const VoiceLibraryList = Type.Object({ catalog: CatalogInfo, voices: Type.Array(LibraryVoice) });
export type VoiceLibraryList = Static<typeof VoiceLibraryList>;

export const VoiceLibraryQuery = Type.Object({
  language: Type.Optional(Type.String({ maxLength: 35, description: 'A BCP 47 prefix: "en" covers en-GB' })),
  quality: Type.Optional(Type.Enum(VOICE_QUALITIES)),
  state: Type.Optional(Type.Enum(VOICE_STATES)),
});
export type VoiceLibraryQuery = Static<typeof VoiceLibraryQuery>;

export const VoiceLibraryParams = Type.Object({ id: Type.String() });

export const VoiceInstallBody = Type.Object(
  { accept_license: Type.Optional(Type.Boolean({ description: 'Required when the licence says accept_required' })) },
  { additionalProperties: false },
);
export type VoiceInstallBody = Static<typeof VoiceInstallBody>;

/** Install events on GET /events: the entry as data. */
export const VOICE_EVENT_TYPES = ['voice-progress', 'voice-installed', 'voice-failed'] as const;
export type VoiceEventType = (typeof VOICE_EVENT_TYPES)[number];
export interface VoiceEvent {
  type: VoiceEventType;
  voice: LibraryVoice;
}
