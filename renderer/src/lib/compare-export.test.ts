import { describe, expect, it } from 'vitest';
import { csvField, sessionCsv, sessionFileName, type CompareSession } from './compare-export';

const session: CompareSession = {
  name: 'Narrators',
  exported_at: '2026-11-23T11:40:00.000Z',
  texts: ['Hello, "world".\nTwo lines.'],
  settings: { rate: 1, pitch: 1.25, volume: 0.5 },
  blind: true,
  loudness_matched: true,
  loudness_target_lufs: -23,
  takes: [
    {
      position: 1,
      label: 'A',
      text_index: 1,
      voice: 'espeak-ng:en-gb',
      voice_name: 'English (GB)',
      engine: 'espeak-ng',
      rating: 4,
      note: '=SUM(A1)',
      sentence_ratings: [5, null, 3],
      pairwise_rank: 2,
      duration_s: 2.5,
      loudness_lufs: -17.25,
      gain_db: -5.75,
    },
    {
      position: 2,
      label: 'B',
      text_index: 1,
      voice: 'espeak-ng:en-us',
      voice_name: 'English (US)',
      engine: 'espeak-ng',
      rating: null,
      note: '',
      sentence_ratings: [],
      pairwise_rank: 1,
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
      'session,text_index,position,label,voice,voice_name,engine,rating,note,sentence_ratings,pairwise_rank,duration_s,loudness_lufs,gain_db,loudness_target_lufs,rate,pitch,volume,blind,text',
    );
    expect(lines[1]).toBe(
      `Narrators,1,1,A,espeak-ng:en-gb,English (GB),espeak-ng,4,'=SUM(A1),5;;3,2,2.5,-17.25,-5.75,-23,1,1.25,0.5,true,"Hello, ""world"".\nTwo lines."`,
    );
    // the line break inside the quoted text is the text's own; rows end with CRLF
    expect(lines[2]).toBe(
      `Narrators,1,2,B,espeak-ng:en-us,English (US),espeak-ng,,,,1,2.4,,0,-23,1,1.25,0.5,true,"Hello, ""world"".\nTwo lines."`,
    );
  });

  it('defuses formulas and keeps plain text plain', () => {
    expect(csvField('+1 better')).toBe("'+1 better");
    expect(csvField('@me')).toBe("'@me");
    expect(csvField('clear voice')).toBe('clear voice');
    expect(csvField(-3.5)).toBe('-3.5');
  });

  it('names files by the session and the second, so two sessions or two exports do not collide', () => {
    const at = new Date('2026-11-26T07:27:05Z');
    expect(sessionFileName('Narrators: EN/US', 'csv', at)).toBe('orator-compare-narrators-en-us-2026-11-26-072705.csv');
    expect(sessionFileName('Other', 'csv', at)).not.toBe(sessionFileName('Narrators', 'csv', at));
    expect(sessionFileName('Narrators', 'json', new Date('2026-11-26T07:27:06Z'))).not.toBe(sessionFileName('Narrators', 'json', at));
  });
});
