import { describe, expect, it } from 'vitest';
import type { ResolvedVoice } from '../engines/registry';
import { compileRewrite, unchanged } from '../lexicon/rewrite';
import { ssmlJobChunks } from './job-chunks';
import { planSsml, planText } from './plan';

/** Only what planning and chunking read of a voice. */
const voice = (id: string, sampleRate = 22050) =>
  ({
    voice: { id, language: 'en-US', sampleRate },
    localName: id.split(':')[1],
    adapter: { id: id.split(':')[0] },
  }) as unknown as ResolvedVoice;
const BASE = { rate: 1, pitch: 1, volume: 1 };
const plan = (markup: string) => planSsml(markup, voice('espeak-ng:en-us'), BASE, (id) => voice(id, 16000));
const asWritten = () => unchanged;

describe('ssmlJobChunks', () => {
  it('chunks each segment apart, with its voice, prosody and pause, and sentences placed in the markup', () => {
    const markup =
      '<speak><p>One. Two.</p><p>Three.<break time="2s"/>Four.</p> <voice name="flite:slt"><prosody rate="slow">Five.</prosody></voice></speak>';
    const chunks = ssmlJobChunks(plan(markup), asWritten);
    expect(chunks.map((c) => [c.text, c.pauseMs, c.own?.voice, c.own?.rate])).toEqual([
      ['One. Two.', 700, 'espeak-ng:en-us', 1],
      ['Three.', 2000, 'espeak-ng:en-us', 1],
      ['Four.', 700, 'espeak-ng:en-us', 1],
      ['Five.', 700, 'flite:slt', 0.75],
    ]);
    const inMarkup = chunks.flatMap((c) => c.sentences!.map(([start, end]) => [...markup].slice(start, end).join('')));
    expect(inMarkup).toEqual(['One.', 'Two.', 'Three.', 'Four.', 'Five.']);
    expect(planText(plan(markup))).toBe('One. Two.\n\nThree. Four. Five.');
  });

  it('applies the lexicon of each segment’s voice', () => {
    const chunks = ssmlJobChunks(plan('<speak>Zog. <voice name="flite:slt">Zog.</voice></speak>'), (v) =>
      v.voice.id === 'flite:slt'
        ? compileRewrite([{ id: '1', grapheme: 'Zog', alias: 'Zogger', language: 'en', case_sensitive: false, whole_word: true }], {
            voiceId: 'flite:slt',
            language: 'en-US',
          })
        : unchanged,
    );
    expect(chunks.map((c) => c.text)).toEqual(['Zog.', 'Zogger.']);
  });

  it('refuses a document none of whose voices can say anything', () => {
    expect(() => ssmlJobChunks(plan('<speak><voice name="flite:slt"><phoneme ph="a"/></voice></speak>'), asWritten)).toThrow(
      /Nothing in it/,
    );
  });

  it('reads a long document in linear time', () => {
    const sentence = (i: number) => `<s>Sentence number ${i} is &amp; stays here.</s>`;
    const parts = Array.from({ length: 20_000 }, (_, i) =>
      i % 50 === 49 ? `<voice name="flite:slt">${sentence(i)}</voice>` : sentence(i),
    );
    const markup = `<speak><p>${parts.join('')}</p></speak>`;
    const started = performance.now();
    const planned = plan(markup);
    const parsed = performance.now();
    const chunks = ssmlJobChunks(planned, asWritten);
    const ms = performance.now() - started;
    console.log(
      `${markup.length} characters of SSML: parsed in ${Math.round(parsed - started)} ms, ${chunks.length} chunks in ${Math.round(ms)} ms`,
    );
    expect(chunks.filter((c) => c.own?.voice === 'flite:slt')).toHaveLength(400);
    expect(ms).toBeLessThan(20_000);
  });
});

describe('ssmlJobChunks, what is shown', () => {
  it('keeps each sentence as the markup writes it: sub, say-as and phoneme as their content', () => {
    const markup =
      '<speak><s>Ask <sub alias="Doctor">Dr.</sub> Kovač.</s><s>Pay <say-as interpret-as="cardinal">12,345</say-as> now.</s><s>Hi <phoneme alphabet="x-espeak" ph="br\'an@x">Branoc</phoneme> Vey.</s></speak>';
    const espeak = { ...voice('espeak-ng:en-us'), adapter: { id: 'espeak-ng', phonemeAlphabet: 'x-espeak' } } as unknown as ResolvedVoice;
    const planned = planSsml(markup, espeak, BASE, () => espeak);
    const chunks = ssmlJobChunks(planned, asWritten);
    const said = chunks.flatMap((c) => c.sentences!.map((span) => c.text.slice(span[2], span[3])));
    const shown = chunks.flatMap((c) => c.sentences!.map((span) => span[4] ?? c.text.slice(span[2], span[3])));
    expect(said.join(' ')).toContain('Doctor');
    expect(said.join(' ')).toContain("[[br'an@x]]");
    expect(shown).toEqual(['Ask Dr. Kovač.', 'Pay 12,345 now.', 'Hi Branoc Vey.']);
    expect(planText(planned)).not.toContain('[[');
  });
});
