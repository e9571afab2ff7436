import { describe, expect, it } from 'vitest';
import type { ResolvedVoice } from '../engines/registry';
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
const asWritten = () => (text: string) => text;

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
    const chunks = ssmlJobChunks(
      plan('<speak>Zog. <voice name="flite:slt">Zog.</voice></speak>'),
      (v) => (text) => (v.voice.id === 'flite:slt' ? text.replace('Zog', 'Zogger') : text),
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
