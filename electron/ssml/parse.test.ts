import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../contract';
import { text as arbitraryText } from '../testing/arbitrary-text';
import { MAX_SEGMENTS, parseSsml, type SsmlSegment } from './parse';
import { renderSegment } from './render';

const BASE = { rate: 1, pitch: 1, volume: 1 };
const EN = { language: 'en-US' };
const ESPEAK = { language: 'en-US', phonemeAlphabet: 'x-espeak' as const };
const spoken = (segments: SsmlSegment[], voice: { language: string; phonemeAlphabet?: 'x-espeak' } = EN) =>
  segments.map((segment) => renderSegment(segment, voice).text);

function invalid(markup: string): ApiError {
  try {
    parseSsml(markup, BASE);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('invalid_ssml');
    return error as ApiError;
  }
  throw new Error(`parsed: ${markup}`);
}

describe('parseSsml', () => {
  it('keeps text of one voice and prosody in one segment, whitespace collapsed', () => {
    const segments = parseSsml('<speak>\n  Hello   there.\n  <s>How are you</s>\n</speak>', BASE);
    expect(segments).toHaveLength(1);
    expect(spoken(segments)[0]!.trim()).toBe('Hello there. \nHow are you');
  });

  it('ends a segment at a break, with its time, strength or the default medium', () => {
    const segments = parseSsml('<speak>One.<break time="1.5s"/>Two.<break strength="x-weak"/>Three.<break/>Four.</speak>', BASE);
    expect(segments.map((s) => s.pauseAfterMs)).toEqual([1500, 100, 400, 0]);
    expect(parseSsml('<speak>a<break time="500ms"/><break time="700ms"/>b</speak>', BASE)[0]!.pauseAfterMs).toBe(1200);
    expect(parseSsml('<speak>a<break time="60s"/>b</speak>', BASE)[0]!.pauseAfterMs).toBe(10_000);
  });

  it('drops breaks before the first and after the last speech', () => {
    const segments = parseSsml('<speak><break time="2s"/>Hello.<break time="2s"/></speak>', BASE);
    expect(segments).toHaveLength(1);
    expect(segments[0]!.pauseAfterMs).toBe(0);
  });

  it('switches voice and prosody, relative to the enclosing values and clamped', () => {
    const segments = parseSsml(
      '<speak>A <voice name="flite:kal16">B <prosody rate="+50%" pitch="+12st" volume="-6dB">C</prosody></voice>' +
        '<prosody rate="x-slow"><prosody rate="-50%">D</prosody></prosody><emphasis>E</emphasis></speak>',
      { rate: 1.2, pitch: 1, volume: 1 },
    );
    expect(segments.map((s) => s.voice)).toEqual([undefined, 'flite:kal16', 'flite:kal16', undefined, undefined]);
    expect(segments[2]!.prosody.rate).toBeCloseTo(1.8);
    expect(segments[2]!.prosody.pitch).toBe(2);
    expect(segments[2]!.prosody.volume).toBeCloseTo(0.501, 2);
    expect(segments[3]!.prosody.rate).toBe(0.5); // 0.6 × 0.5 = 0.3, clamped
    expect(segments[4]!.prosody).toEqual({ rate: 1.2 * 0.9, pitch: 1.05, volume: 1.2 });
  });

  it('makes paragraphs and sentences line breaks inside a segment, and pauses between segments', () => {
    const segments = parseSsml('<speak><p>One.</p><p>Two.</p><p><voice name="x:y">Three.</voice></p></speak>', BASE);
    expect(spoken(segments)[0]).toBe('One.\n\nTwo.');
    expect(segments[0]!.pauseAfterMs).toBe(700);
  });

  it('expands say-as in English, spells characters, and speaks unknown kinds as written', () => {
    const text = (inner: string) => spoken(parseSsml(`<speak>${inner}</speak>`, BASE))[0];
    expect(text('<say-as interpret-as="cardinal">12,345</say-as>')).toBe('twelve thousand three hundred forty-five');
    expect(text('<say-as interpret-as="ordinal">21</say-as>')).toBe('twenty-first');
    expect(text('<say-as interpret-as="characters">ab1</say-as>')).toBe('A B one');
    expect(text('<say-as interpret-as="date" format="dmy">05/03/2024</say-as>')).toBe('March the fifth, twenty twenty-four');
    expect(text('<say-as interpret-as="date">1999-12-31</say-as>')).toBe('December the thirty-first, nineteen ninety-nine');
    expect(text('<say-as interpret-as="telephone">+1 555-0100</say-as>')).toBe('plus one, five five five, zero one zero zero');
    expect(text('<say-as interpret-as="vxml:boolean">yes</say-as>')).toBe('yes');
    expect(spoken(parseSsml('<speak><say-as interpret-as="cardinal">42</say-as></speak>', BASE), { language: 'de' })[0]).toBe('42');
  });

  it('says sub aliases, and phonemes where the engine reads their alphabet', () => {
    expect(spoken(parseSsml('<speak><sub alias="World Wide Web">WWW</sub></speak>', BASE))[0]).toBe('World Wide Web');
    const phoneme = parseSsml('<speak><phoneme alphabet="x-espeak" ph="t@mA:toU">tomato</phoneme></speak>', BASE);
    expect(spoken(phoneme, { language: 'en', phonemeAlphabet: 'x-espeak' })[0]).toBe(' [[t@mA:toU]] ');
    expect(spoken(phoneme)[0]).toBe('tomato');
    const ipa = (ph: string) => spoken(parseSsml(`<speak><phoneme alphabet="ipa" ph="${ph}">word</phoneme></speak>`, BASE), ESPEAK)[0];
    expect(ipa('təˈmeɪtoʊ')).toBe(" [[t@'meItoU]] ");
    expect(ipa('ˈθɪŋkɪŋ')).toBe(" [['TINkIN]] ");
    expect(ipa('ʁ')).toBe('word'); // a symbol outside the table: the text is spoken
  });

  it('speaks the content of unknown elements and ignores their tags', () => {
    const segments = parseSsml('<speak><foo bar="1">Hello <mark name="m"/>world</foo> <audio src="x.wav">again</audio></speak>', BASE);
    expect(spoken(segments)[0]).toBe('Hello world again');
  });

  it('keeps where every sentence came from in the markup', () => {
    const markup = '<speak>Hi &amp; bye. <sub alias="Doctor">Dr.</sub> Who</speak>';
    const [segment] = parseSsml(markup, BASE);
    const { text, at } = renderSegment(segment!, EN);
    const chars = [...markup];
    expect(chars.slice(at[0]!, at[1]! + 1).join('')).toBe('Hi');
    const doctor = text.indexOf('Doctor');
    expect(chars.slice(at[doctor]!, at[doctor + 5]! + 1).join('')).toBe('Dr.');
    expect(chars[at[text.indexOf('Who')]!]).toBe('W');
    // code points, not UTF-16 units: "𝔸" counts one
    const astral = renderSegment(parseSsml('<speak>𝔸 Hi.</speak>', BASE)[0]!, EN);
    expect(astral.at[[...astral.text].indexOf('H')]).toBe(9);
  });

  it('refuses malformed markup with its line and column', () => {
    const error = invalid('<speak>\n  <p>Hello</s>\n</speak>');
    expect(error.position).toEqual({ line: 2, column: expect.any(Number) as number });
    expect(error.message).toMatch(/^Invalid SSML at line 2, column \d+: /);
    expect(error.toBody().error).toMatchObject({ code: 'invalid_ssml', line: 2 });
    expect(invalid('Hello').message).toMatch(/line 1/);
    expect(invalid('<p>Hello</p>').message).toMatch(/<speak>/);
    expect(invalid('<speak>a<break time="soon"/></speak>').position).toEqual({ line: 1, column: 9 });
    expect(invalid('<speak>\n<prosody rate="fast-ish">a</prosody></speak>').position).toEqual({ line: 2, column: 1 });
    expect(invalid('<!DOCTYPE speak [<!ENTITY a "b">]><speak>&a;</speak>').code).toBe('invalid_ssml');
    expect(invalid('<speak>&nbsp;</speak>').code).toBe('invalid_ssml');
    expect(invalid('<speak> </speak>').message).toMatch(/nothing to speak/);
    expect(invalid('<speak>' + '<s>'.repeat(70) + 'deep' + '</s>'.repeat(70) + '</speak>').message).toMatch(/nested/);
  });

  it('caps the number of segments', () => {
    const markup = `<speak>${'a<break time="1ms"/>'.repeat(MAX_SEGMENTS + 1)}</speak>`;
    expect(invalid(markup).message).toMatch(String(MAX_SEGMENTS));
  });

  it('never throws anything but invalid_ssml, whatever the input', () => {
    const tag = fc.constantFrom(
      '<speak>',
      '</speak>',
      '<p>',
      '</p>',
      '<s>',
      '</s>',
      '<break time="1s"/>',
      '<break strength="weak"/>',
      '<voice name="espeak-ng:de">',
      '</voice>',
      '<prosody rate="slow" pitch="+2st">',
      '</prosody>',
      '<emphasis>',
      '</emphasis>',
      '<say-as interpret-as="cardinal">',
      '<say-as interpret-as="date">',
      '</say-as>',
      '<sub alias="x">',
      '</sub>',
      '<phoneme ph="a">',
      '</phoneme>',
      '<foo>',
      '</foo>',
      '&amp;',
      '&bogus;',
      '<!-- c -->',
      '<![CDATA[x]]>',
      '<',
      '>',
      '"',
    );
    const markup = fc.array(fc.oneof(tag, arbitraryText), { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(
        fc.oneof(
          markup,
          markup.map((m) => `<speak>${m}</speak>`),
          fc.string(),
        ),
        (input) => {
          try {
            const segments = parseSsml(input, BASE);
            for (const segment of segments) renderSegment(segment, EN);
          } catch (error) {
            if (!(error instanceof ApiError) || error.code !== 'invalid_ssml') throw error;
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
