import { describe, expect, it } from 'vitest';
import { cuesOf, formatSubtitles } from './subtitles';

const sentence = (start_s: number, end_s: number, text: string) => ({ start_s, end_s, text_start: 0, text_end: 1, text });

describe('subtitles', () => {
  it('writes WebVTT and SubRip cues, one per sentence, moved by the offset and kept inside the audio', () => {
    const cues = cuesOf(
      [sentence(0.1, 1.2, 'One <b>&'), sentence(1.1, 2.5, 'Two --> three.'), sentence(3, 3.9, 'Past the end.')],
      0.5,
      3.7,
    );
    expect(cues).toEqual([
      { start_s: 0.6, end_s: 1.7, text: 'One <b>&' },
      { start_s: 1.7, end_s: 3, text: 'Two --> three.' },
      { start_s: 3.5, end_s: 3.7, text: 'Past the end.' },
    ]);
    expect(formatSubtitles(cues, 'vtt')).toBe(
      'WEBVTT\n\n1\n00:00:00.600 --> 00:00:01.700\nOne &lt;b&gt;&amp;\n\n2\n00:00:01.700 --> 00:00:03.000\nTwo --&gt; three.\n\n3\n00:00:03.500 --> 00:00:03.700\nPast the end.\n',
    );
    expect(formatSubtitles(cues.slice(0, 2), 'srt')).toBe(
      '1\n00:00:00,600 --> 00:00:01,700\nOne <b>&\n\n2\n00:00:01,700 --> 00:00:03,000\nTwo -> three.\n',
    );
  });

  it('wraps long sentences and writes hours', () => {
    const text = 'A long sentence that goes on and on well past the width of one line of captions.';
    const [srt] = formatSubtitles(cuesOf([sentence(3725.5, 3730, text)], 0, 4000), 'srt')
      .trimEnd()
      .split('\n\n');
    const lines = srt!.split('\n');
    expect(lines[1]).toBe('01:02:05,500 --> 01:02:10,000');
    expect(lines.slice(2).join(' ')).toBe(text);
    expect(Math.max(...lines.slice(2).map((l) => l.length))).toBeLessThanOrEqual(42);
  });
});
