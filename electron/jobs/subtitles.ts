import type { SentenceTiming, SubtitleFormat } from '../contract';

/** One caption: a sentence and when it is spoken, in seconds of the audio it goes with. */
export interface Cue {
  start_s: number;
  end_s: number;
  text: string;
}

/** Longest line of a cue before it is wrapped; players show about 40 characters a line. */
const LINE_CHARS = 42;

/**
 * Cues from sentence timings moved by `offsetS` (room tone, earlier jobs): one sentence each,
 * in order, never overlapping, never past `durationS` (timings are rounded to the millisecond and
 * the last may round past the last sample).
 */
export function cuesOf(sentences: readonly SentenceTiming[], offsetS: number, durationS: number): Cue[] {
  const cues: Cue[] = [];
  let previousEnd = 0;
  for (const sentence of sentences) {
    const start = Math.max(previousEnd, Math.min(durationS, sentence.start_s + offsetS));
    const end = Math.max(start, Math.min(durationS, sentence.end_s + offsetS));
    if (end <= start || !sentence.text.trim()) continue;
    cues.push({ start_s: start, end_s: end, text: sentence.text.trim() });
    previousEnd = end;
  }
  return cues;
}

/** WebVTT or SubRip text of the cues. */
export function formatSubtitles(cues: readonly Cue[], format: SubtitleFormat): string {
  const blocks = cues.map((cue, i) => {
    const times = `${timestamp(cue.start_s, format)} --> ${timestamp(cue.end_s, format)}`;
    const text = wrap(format === 'vtt' ? escapeVtt(cue.text) : cue.text.replace(/-->/g, '->'));
    // a number before each cue: SubRip needs it, WebVTT takes it as the cue's id
    return `${i + 1}\n${times}\n${text}`;
  });
  const body = blocks.join('\n\n');
  return format === 'vtt' ? `WEBVTT\n\n${body}${body ? '\n' : ''}` : `${body}${body ? '\n' : ''}`;
}

/** hh:mm:ss.mmm (WebVTT) or hh:mm:ss,mmm (SubRip). */
function timestamp(seconds: number, format: SubtitleFormat): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const hms = `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}`;
  return `${hms}${format === 'vtt' ? '.' : ','}${pad(ms % 1000, 3)}`;
}

/** WebVTT reads &, < and > as markup, and a line "-->" as a timing. */
const escapeVtt = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Long sentences on lines of about LINE_CHARS, at spaces; a cue never holds a blank line. */
function wrap(text: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > LINE_CHARS) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}
