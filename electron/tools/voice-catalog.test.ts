import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import type { Catalog } from '../contract/voice-library';
import { parseCatalog } from '../voices/catalog';
import { makeCatalog } from './voice-catalog';

// The catalog Orator ships is what the generator makes from the pinned sources, and fits the format.
const read = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;

it('makes the shipped catalog from the pinned sources: every Piper voice, Kokoro speakers, Matcha with its vocoder', async () => {
  const piper = await read('resources/voice-sources/piper-voices.json');
  const made = await makeCatalog(piper as never, (await read('resources/voice-sources/sherpa-onnx-models.json')) as never);
  const shipped = (await read('resources/voice-catalog.json')) as Catalog;
  expect(made).toEqual(shipped);
  const ids = new Set(made.voices.map((v) => v.id));
  for (const key of Object.keys(piper)) expect(ids.has(`piper-${key}`)).toBe(true);
  const tugao = made.voices.find((v) => v.id === 'piper-pt_PT-tugão-medium')!;
  expect(tugao.files[0]!.url).toMatch(/\/pt\/pt_PT\/tug%C3%A3o\/medium\/pt_PT-tug%C3%A3o-medium\.onnx$/);
  expect(made.voices.filter((v) => v.requires?.[0] === 'kokoro-multi-lang-v1_0')).toHaveLength(53);
  expect(made.voices.find((v) => v.id === 'kokoro-en-v0_19-af_bella')).toMatchObject({ speaker: 1, language: 'en-US', files: [] });
  expect(made.voices.find((v) => v.id === 'matcha-icefall-en_US-ljspeech')?.requires).toEqual(['vocos-22khz-univ']);
  // an archive without a pinned hash names its release's checksum list, read at install time
  const release = 'https://github.com/k2-fsa/sherpa-onnx/releases/download/';
  expect(made.voices.find((v) => v.id === 'kokoro-en-v0_19')?.files).toEqual([
    {
      url: `${release}tts-models/kokoro-en-v0_19.tar.bz2`,
      size_bytes: null,
      sha256: null,
      archive: 'tar.bz2',
      checksums: `${release}tts-models/checksum.txt`,
    },
  ]);
  expect(made.voices.find((v) => v.id === 'vocos-22khz-univ')?.files[0]?.checksums).toBe(`${release}vocoder-models/checksum.txt`);
  const unverifiable = made.voices.filter((v) => v.files.some((f) => !f.sha256 && !f.md5 && !f.checksums));
  expect(unverifiable).toEqual([]);
  // the shipped catalog reads back as the gateway reads it
  expect(parseCatalog(JSON.stringify(shipped), 'file:///catalog.json')).toHaveLength(shipped.voices.length);
});

it('refuses a catalog that does not fit the format, names twice, or requires what it lacks', () => {
  const voice = {
    id: 'a',
    engine: 'piper',
    name: 'A',
    language: 'en',
    quality: 'low',
    speakers: 1,
    license: { id: 'MIT', url: '', accept_required: false },
    size_bytes: 1,
    files: [{ url: 'a.onnx', size_bytes: 1, md5: '0'.repeat(32) }],
  };
  const text = (voices: unknown[]) => JSON.stringify({ version: 1, voices });
  expect(parseCatalog(text([voice]), 'http://mirror.lan/voices/catalog.json')[0]!.files[0]!.url).toBe('http://mirror.lan/voices/a.onnx');
  const listed = { ...voice, files: [{ url: 'a.onnx', size_bytes: null, sha256: null, checksums: 'checksum.txt' }] };
  expect(parseCatalog(text([listed]), 'http://mirror.lan/voices/catalog.json')[0]!.files[0]!.checksums).toBe(
    'http://mirror.lan/voices/checksum.txt',
  );
  expect(() => parseCatalog(text([voice, voice]), 'http://x/')).toThrow('the catalog lists "a" twice');
  expect(() => parseCatalog(text([{ ...voice, requires: ['b'] }]), 'http://x/')).toThrow('"a" requires "b"');
  expect(() => parseCatalog(text([{ ...voice, id: '../up' }]), 'http://x/')).toThrow("does not fit Orator's format");
  expect(() => parseCatalog(text([{ ...voice, files: [{ ...voice.files[0], url: 'ftp://x/a' }] }]), 'http://x/')).toThrow(
    'http(s) or file://',
  );
});
