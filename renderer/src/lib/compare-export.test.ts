import { describe, expect, it } from 'vitest';
import { csvField, sessionCsv, type CompareSession } from './compare-export';

const session: CompareSession = {
  exported_at: '2026-11-23T11:40:00.000Z',
  text: 'Hello, "world".\nTwo lines.',
  settings: { rate: 1, pitch: 1.25, volume: 0.5 },
  blind: true,
  loudness_matched: true,
  loudness_target_lufs: -23,
  takes: [
    {
      position: 1,
      label: 'A',
      voice: 'espeak-ng:en-gb',
      voice_name: 'English (GB)',
      engine: 'espeak-ng',
      rating: 4,
      note: '=SUM(A1)',
      duration_s: 2.5,
      loudness_lufs: -17.25,
      gain_db: -5.75,
    },
    {
      position: 2,
      label: 'B',
      voice: 'espeak-ng:en-us',
      voice_name: 'English (US)',
      engine: 'espeak-ng',
      rating: null,
      note: '',
      duration_s: 2.4,
      loudness_lufs: null,
      gain_db: 0,
    },
  ],
};

describe('compare session export', () => {
  it('writes one CSV row per take with the settings on each, quoting what needs it', async () => {
    const lines = (await sessionCsv(session).text()).split('\r\n');
    expect(lines[0]).toBe(
      'position,label,voice,voice_name,engine,rating,note,duration_s,loudness_lufs,gain_db,loudness_target_lufs,rate,pitch,volume,blind,text',
    );
    expect(lines[1]).toBe(
      `1,A,espeak-ng:en-gb,English (GB),espeak-ng,4,'=SUM(A1),2.5,-17.25,-5.75,-23,1,1.25,0.5,true,"Hello, ""world"".\nTwo lines."`,
    );
    // the line break inside the quoted text is the text's own; rows end with CRLF
    expect(lines[2]).toBe(`2,B,espeak-ng:en-us,English (US),espeak-ng,,,2.4,,0,-23,1,1.25,0.5,true,"Hello, ""world"".\nTwo lines."`);
  });

  it('defuses formulas and keeps plain text plain', () => {
    expect(csvField('+1 better')).toBe("'+1 better");
    expect(csvField('@me')).toBe("'@me");
    expect(csvField('clear voice')).toBe('clear voice');
    expect(csvField(-3.5)).toBe('-3.5');
  });
});
