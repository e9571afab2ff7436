import { describe, expect, it } from 'vitest';
import { coreTag, languageName } from './languages';

describe('coreTag', () => {
  it('keeps language, script and region, drops variants and private use', () => {
    expect(coreTag('en-GB-scotland')).toBe('en-GB');
    expect(coreTag('en-US-x-nyc')).toBe('en-US');
    expect(coreTag('chr-Qaaa-US-x-west')).toBe('chr-Qaaa-US');
    expect(coreTag('ZH_hant_tw')).toBe('zh-Hant-TW');
    expect(coreTag('es-419')).toBe('es-419');
    expect(coreTag('bpy')).toBe('bpy');
  });
});

describe('languageName', () => {
  it('names a tag through Intl.DisplayNames in the same way for every tag', () => {
    const names = new Intl.DisplayNames(undefined, { type: 'language' });
    expect(languageName('en-US')).toBe(names.of('en-US'));
    expect(languageName('bn')).toBe(names.of('bn'));
    // Variants and private use are left to the tag shown beside the name.
    expect(languageName('en-GB-scotland')).toBe(names.of('en-GB'));
    expect(languageName('en-US-x-nyc')).toBe(names.of('en-US'));
  });

  it('falls back to the code where Intl has no name, never to a half-translated one', () => {
    expect(languageName('qdb')).toBe('qdb');
    expect(languageName('qaa-Qaaa')).toBe('qaa-Qaaa');
    expect(languageName('not a tag')).toBe('not a tag');
    expect(languageName('')).toBe('');
  });
});
