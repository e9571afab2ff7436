import { describe, expect, it } from 'vitest';
import { contentDisposition } from './replies';

/** What a client reads back from `filename*` (RFC 8187). */
const extended = (header: string) => decodeURIComponent(/filename\*=UTF-8''(\S+)$/.exec(header)![1]!);

describe('Content-Disposition', () => {
  it('names a plain ASCII file with filename alone', () => {
    expect(contentDisposition('attachment', 'orator-job-1234abcd.wav')).toBe('attachment; filename="orator-job-1234abcd.wav"');
    expect(contentDisposition('inline', 'orator-speech.mp3')).toBe('inline; filename="orator-speech.mp3"');
  });

  it('adds filename* for any other name, with only attr-chars left unencoded', () => {
    const header = contentDisposition('attachment', "L'Étranger (1942) *édition*.m4b");
    expect(header).toBe(
      `attachment; filename="L'_tranger (1942) *_dition*.m4b"; filename*=UTF-8''L%27%C3%89tranger%20%281942%29%20%2A%C3%A9dition%2A.m4b`,
    );
    expect(extended(header)).toBe("L'Étranger (1942) *édition*.m4b");
  });

  it('keeps quotes, backslashes and line breaks out of the quoted name', () => {
    const header = contentDisposition('attachment', 'a"b\\c\r\nd.vtt');
    expect(header.split('; ')[1]).toBe('filename="a_b_c__d.vtt"');
    expect(extended(header)).toBe('a"b\\c\r\nd.vtt');
  });

  it('sends a lone surrogate as U+FFFD, and a whole pair as its character', () => {
    const lone = contentDisposition('attachment', 'Chapter \ud83d.mp3');
    expect(extended(lone)).toBe('Chapter \ufffd.mp3');
    expect(extended(contentDisposition('attachment', 'Night \udc00\ud83d\ude80.mp3'))).toBe('Night \ufffd🚀.mp3');
  });
});
