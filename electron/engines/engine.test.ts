import { describe, expect, it } from 'vitest';
import { splitVoiceId } from '../contract';
import { toBcp47 } from './engine';

describe('toBcp47', () => {
  it.each([
    ['en-us', 'en-US'],
    ['en-gb-x-rp', 'en-GB-x-rp'],
    ['en-gb-scotland', 'en-GB-scotland'],
    ['en-us-nyc', 'en-US-x-nyc'],
    ['chr-US-Qaaa-x-west', 'chr-Qaaa-US-x-west'],
    ['fa-latn', 'fa-Latn'],
    ['es-419', 'es-419'],
    ['piqd', 'tlh-Piqd'],
    ['en_US', 'en-US'],
  ])('%s → %s, a tag Intl accepts', (tag, expected) => {
    expect(toBcp47(tag)).toBe(expected);
    expect(() => new Intl.Segmenter(toBcp47(tag))).not.toThrow();
  });

  it('falls back to a private-use tag for what cannot be repaired', () => {
    expect(toBcp47('1234567890')).toMatch(/^und-x-/);
    expect(Intl.getCanonicalLocales(toBcp47('1234567890'))).toHaveLength(1);
  });
});

describe('splitVoiceId', () => {
  it('splits at the first colon', () => {
    expect(splitVoiceId('sherpa-onnx:en:amy')).toEqual({ engine: 'sherpa-onnx', name: 'en:amy' });
    expect(splitVoiceId('nocolon')).toBeNull();
    expect(splitVoiceId(':x')).toBeNull();
    expect(splitVoiceId('x:')).toBeNull();
  });
});
