import { ApiError, checkTitle, DEFAULT_OUTPUT_FORMAT, formatNamed, OPTION_RANGES, PROJECT_LIMITS, type ProjectPatch } from '../contract';
import type { CutManuscript } from '../projects/manuscript';
import type { ProjectSettings } from '../projects/store';
import { bookAuthor } from './project-import';
import { definedOnly } from './serial';
import type { Voices } from './voices';

/** A new project's settings before the ones asked for: its book's title, author and voice, the default prosody and format. */
export function newProjectSettings(cut: CutManuscript & { voice: string }): ProjectSettings {
  const { rate, pitch, volume } = OPTION_RANGES;
  const prosody = { rate: rate.default, pitch: pitch.default, volume: volume.default };
  return { title: cut.title, author: bookAuthor(cut), voice: cut.voice, ...prosody, format: DEFAULT_OUTPUT_FORMAT };
}

/** Settings with a change applied, checked: titles one line, the voice installed (its id as resolved). */
export function checkedSettings(voices: Voices, base: ProjectSettings, change: ProjectPatch): ProjectSettings {
  const next = { ...base, ...definedOnly(change) };
  const title = checkTitle(next.title);
  if ('problem' in title) throw new ApiError('invalid_request', `"title": ${title.problem}`);
  const author = next.author.trim();
  if (author && 'problem' in checkTitle(author)) {
    throw new ApiError('invalid_request', `"author" is one line of at most ${PROJECT_LIMITS.titleChars} characters.`);
  }
  const voice = voices.resolve(next.voice ? { voice: next.voice } : {}).voice.id;
  return { ...next, title: title.title, author, voice, format: formatNamed(next.format) };
}
