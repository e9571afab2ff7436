/**
 * Makes resources/voice-catalog.json, the catalog Orator ships (docs/voices.md), from the pinned
 * sources in resources/voice-sources/: Piper's voices.json at a pinned ref and the model lists of
 * sherpa-onnx at a pinned commit.
 *
 *   npx tsx electron/tools/voice-catalog.ts            # from the pinned files only (offline)
 *   npx tsx electron/tools/voice-catalog.ts --online   # first pins the sherpa-onnx archives'
 *       sizes and sha256 from the releases' asset lists and checksum.txt into the sources file
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { Value } from 'typebox/value';
import { Catalog, type CatalogFile, type CatalogVoice, type VoiceLicense } from '../contract/voice-library';
import { toBcp47 } from '../engines/engine';

const SOURCES = 'resources/voice-sources';
/** Each sherpa-onnx release's list of `<name>\t<sha256>` lines. */
const CHECKSUM_LIST = 'checksum.txt';
const OUTPUT = 'resources/voice-catalog.json';

interface PiperVoice {
  key: string;
  name: string;
  language: { code: string; name_english: string; country_english: string };
  quality: CatalogVoice['quality'];
  num_speakers: number;
  speaker_id_map: Record<string, number>;
  files: Record<string, { size_bytes: number; md5_digest: string }>;
}
interface Asset {
  size_bytes: number;
  sha256: string;
}
interface SherpaSources {
  piper_voices: { ref: string; base_url: string };
  sherpa_onnx: { commit: string; release_url: string };
  vits_piper: { archive: string; lang: string; name: string; quality: string; speakers: number; source: string; license?: string }[];
  kokoro: { archive: string; name: string; language: string; license: string; license_url: string; speakers: string[] }[];
  matcha: { archive: string; name: string; language: string; license: string; license_url: string; vocoder: string }[];
  components: { id: string; name: string; release: string; file: string; archive?: 'tar.bz2'; license: string; license_url: string }[];
  prefer_archive: string[];
  /** "<release>/<file>" → its size and sha256, once pinned (--online). */
  release_assets: Record<string, Asset>;
}

/** Licences that limit what the audio made with a voice may be used for, or that nobody has read yet. */
const ACCEPT_REQUIRED = /^(unknown|CC-BY-NC|.*-NC-|research)/i;
const license = (id: string, url: string): VoiceLicense => ({ id, url, accept_required: ACCEPT_REQUIRED.test(id) });

/** Percent-encodes each segment of a path (some Piper keys are not ASCII: pt_PT-tugão-medium). */
const encodePath = (file: string) => file.split('/').map(encodeURIComponent).join('/');
const sumSizes = (files: CatalogFile[]) => (files.some((f) => f.size_bytes === null) ? null : files.reduce((n, f) => n + f.size_bytes!, 0));
const QUALITIES = new Set(['x_low', 'low', 'medium', 'high']);

function piperVoices(voices: Record<string, PiperVoice>, { ref, base_url }: SherpaSources['piper_voices']): CatalogVoice[] {
  return Object.values(voices)
    .sort((a, b) => a.key.localeCompare(b.key))
    .map((voice) => {
      const files: CatalogFile[] = Object.entries(voice.files).map(([file, { size_bytes, md5_digest }]) => ({
        url: `${base_url}${ref}/${encodePath(file)}`,
        size_bytes,
        md5: md5_digest,
      }));
      const card = Object.keys(voice.files).find((f) => f.endsWith('/MODEL_CARD'));
      const names = Object.entries(voice.speaker_id_map)
        .sort((a, b) => a[1] - b[1])
        .map(([name]) => name);
      return {
        id: `piper-${voice.key}`,
        engine: 'piper',
        name: `${voice.name} (${voice.language.name_english}, ${voice.language.country_english})`,
        language: toBcp47(voice.language.code),
        quality: voice.quality,
        speakers: Math.max(1, voice.num_speakers),
        ...(names.length > 1 ? { speaker_names: names } : {}),
        // the licence is in each voice's MODEL_CARD, which voices.json does not carry
        license: license('unknown', card ? `${base_url}${ref}/${encodePath(card)}` : base_url),
        size_bytes: sumSizes(files),
        files,
      };
    });
}

/**
 * A release asset: pinned when --online read its size and sha256, else with the release's
 * checksum list, from which the gateway takes its sha256 at install time (docs/voices.md).
 */
function releaseFile(sources: SherpaSources, release: string, file: string, archive?: 'tar.bz2'): CatalogFile {
  const asset = sources.release_assets[`${release}/${file}`];
  return {
    url: `${sources.sherpa_onnx.release_url}${release}/${file}`,
    size_bytes: asset?.size_bytes ?? null,
    sha256: asset?.sha256 ?? null,
    ...(archive ? { archive } : {}),
    ...(asset ? {} : { checksums: `${sources.sherpa_onnx.release_url}${release}/${CHECKSUM_LIST}` }),
  };
}

const withoutMarks = (key: string) => key.normalize('NFD').replace(/\p{M}/gu, '');

function sherpaVoices(sources: SherpaSources, piperKeys: Set<string>): CatalogVoice[] {
  const voices: CatalogVoice[] = [];
  // A vits-piper archive where voices.json has no such voice, or where the raw voice cannot be
  // made sherpa-ready here (pinyin voices need the archive's g2pw files).
  for (const model of sources.vits_piper) {
    const key = model.archive.slice('vits-piper-'.length);
    if (piperKeys.has(withoutMarks(key)) && !sources.prefer_archive.includes(key)) continue;
    const files = [releaseFile(sources, 'tts-models', `${model.archive}.tar.bz2`, 'tar.bz2')];
    voices.push({
      id: model.archive,
      engine: 'piper',
      name: `${model.name} (${model.lang}, sherpa-onnx archive)`,
      language: toBcp47(model.lang),
      quality: (QUALITIES.has(model.quality) ? model.quality : 'medium') as CatalogVoice['quality'],
      speakers: Math.max(1, model.speakers),
      license: license(model.license ?? 'unknown', model.source),
      size_bytes: sumSizes(files),
      files,
    });
  }
  for (const model of sources.kokoro) {
    const files = [releaseFile(sources, 'tts-models', `${model.archive}.tar.bz2`, 'tar.bz2')];
    const shared = { engine: 'kokoro' as const, quality: 'high' as const, license: license(model.license, model.license_url) };
    voices.push({
      ...shared,
      id: model.archive,
      name: `${model.name} (all ${model.speakers.length} speakers)`,
      language: model.language,
      speakers: model.speakers.length,
      speaker_names: model.speakers,
      size_bytes: sumSizes(files),
      files,
    });
    model.speakers.forEach((speaker, index) =>
      voices.push({
        ...shared,
        id: `${model.archive}-${speaker}`,
        name: `${kokoroSpeakerName(speaker)} (${model.name})`,
        language: KOKORO_LANGUAGES[speaker[0]!] ?? model.language,
        speakers: 1,
        speaker: index,
        size_bytes: 0,
        files: [],
        requires: [model.archive],
      }),
    );
  }
  for (const model of sources.matcha) {
    const files = [releaseFile(sources, 'tts-models', `${model.archive}.tar.bz2`, 'tar.bz2')];
    voices.push({
      id: model.archive,
      engine: 'matcha',
      name: model.name,
      language: model.language,
      quality: 'high',
      speakers: 1,
      license: license(model.license, model.license_url),
      size_bytes: sumSizes(files),
      files,
      requires: [model.vocoder],
    });
  }
  for (const component of sources.components) {
    const files = [releaseFile(sources, component.release, component.file, component.archive)];
    voices.push({
      id: component.id,
      engine: 'component',
      name: component.name,
      language: 'und',
      quality: 'high',
      speakers: 1,
      license: license(component.license, component.license_url),
      size_bytes: sumSizes(files),
      files,
    });
  }
  return voices;
}

/** Kokoro speaker names start with the language and gender: a = US English, b = British, … */
const KOKORO_LANGUAGES: Record<string, string> = {
  a: 'en-US',
  b: 'en-GB',
  e: 'es',
  f: 'fr-FR',
  h: 'hi',
  i: 'it',
  j: 'ja',
  p: 'pt-BR',
  z: 'zh',
};
function kokoroSpeakerName(speaker: string): string {
  const [prefix = '', name = 'default'] = speaker.split('_');
  const gender = prefix[1] === 'f' ? 'female' : prefix[1] === 'm' ? 'male' : '';
  return `${name[0]!.toUpperCase()}${name.slice(1)}${gender ? `, ${gender}` : ''}`;
}

/** Pins every sherpa-onnx archive the catalog names from the releases' asset lists (size and sha256 digest). */
async function pinReleaseAssets(sources: SherpaSources): Promise<void> {
  for (const release of ['tts-models', 'vocoder-models']) {
    const response = await fetch(`https://api.github.com/repos/k2-fsa/sherpa-onnx/releases/tags/${release}`);
    if (!response.ok) throw new Error(`${release}: HTTP ${response.status}`);
    const { assets } = (await response.json()) as { assets: { name: string; size: number; digest?: string }[] };
    const checksums = new Map<string, string>();
    const listed = assets.find((a) => a.name === CHECKSUM_LIST);
    if (listed) {
      const text = await (await fetch(`${sources.sherpa_onnx.release_url}${release}/${CHECKSUM_LIST}`)).text();
      for (const line of text.split('\n')) {
        const [name, sha256] = line.trim().split(/\s+/);
        if (name && sha256 && /^[0-9a-f]{64}$/.test(sha256)) checksums.set(name, sha256);
      }
    }
    for (const asset of assets) {
      const sha256 = checksums.get(asset.name) ?? asset.digest?.replace(/^sha256:/, '');
      if (sha256) sources.release_assets[`${release}/${asset.name}`] = { size_bytes: asset.size, sha256 };
    }
  }
}

export async function makeCatalog(piper: Record<string, PiperVoice>, sources: SherpaSources): Promise<Catalog> {
  const raw = piperVoices(piper, sources.piper_voices);
  const catalog: Catalog = {
    version: 1,
    ref: `piper-voices@${sources.piper_voices.ref} sherpa-onnx@${sources.sherpa_onnx.commit}`,
    voices: [...raw, ...sherpaVoices(sources, new Set(Object.keys(piper).map(withoutMarks)))],
  };
  if (!Value.Check(Catalog, catalog))
    throw new Error(`The catalog does not fit its schema: ${[...Value.Errors(Catalog, catalog)][0]?.message}`);
  return catalog;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { online: { type: 'boolean', default: false } } });
  const piper = JSON.parse(await readFile(`${SOURCES}/piper-voices.json`, 'utf8')) as Record<string, PiperVoice>;
  const sourcesFile = `${SOURCES}/sherpa-onnx-models.json`;
  const sources = JSON.parse(await readFile(sourcesFile, 'utf8')) as SherpaSources;
  if (values.online) {
    await pinReleaseAssets(sources);
    await writeFile(sourcesFile, `${JSON.stringify(sources, null, 1)}\n`);
  }
  const catalog = await makeCatalog(piper, sources);
  await writeFile(OUTPUT, `${JSON.stringify(catalog, null, 1)}\n`);
  const voices = catalog.voices.filter((v) => v.engine !== 'component');
  const unpinned = catalog.voices.filter((v) => v.files.some((f) => f.size_bytes === null));
  console.log(
    `${OUTPUT}: ${voices.length} voices in ${new Set(voices.map((v) => v.language)).size} languages; ` +
      `${unpinned.length} entries not pinned (their sha256 is read from the release's ${CHECKSUM_LIST} at install)`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
