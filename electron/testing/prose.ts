import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Another client's text, told apart from `prose` by its words. */
export const OTHER_CLIENT_TEXT = 'Quillon the ferryman rowed across the harbour at dawn. The gulls followed his small boat home.';

/** Plain prose of about `chars` characters, in sentences. */
export function prose(chars: number): string {
  const sentences = [
    'The river wound slowly through the valley, carrying leaves from the autumn trees.',
    'She opened the old book and read the first page aloud to the quiet room.',
    'Nobody expected the storm to arrive so early, yet the sky had warned them all morning.',
    'In the evening the lamps were lit one by one along the narrow street.',
  ];
  let text = '';
  for (let i = 0; text.length < chars; i++) text += (text ? ' ' : '') + sentences[i % sentences.length];
  return text.slice(0, chars);
}

/**
 * `prose` in which no sentence is said twice, for books whose sentences the render cache would
 * otherwise synthesize once: each sentence numbered and marked with `tag` ("part 2").
 */
export function distinctProse(chars: number, tag: string): string {
  return prose(chars)
    .split(/(?<=\.) /)
    .map((sentence, n) => `Line ${n + 1} of ${tag}: ${sentence}`)
    .join(' ');
}

/** Real prose with its numbers and lists: the licences Debian ships, `chars` characters of them. */
export function licenceText(chars: number): string {
  const files = ['GPL-3', 'LGPL-2.1', 'GPL-2', 'MPL-2.0', 'Apache-2.0', 'GFDL-1.3', 'MPL-1.1'];
  let text = '';
  for (const name of files) {
    if (text.length >= chars) break;
    text += readFileSync(path.join('/usr/share/common-licenses', name), 'utf8') + '\n\n';
  }
  if (text.length < chars) throw new Error(`/usr/share/common-licenses holds fewer than ${chars} characters of these licences`);
  return text.slice(0, chars);
}

/** The licences of issue 12's bench, in its order: Debian ships them all. */
const BENCH_LICENCES = ['GPL-3', 'GPL-2', 'LGPL-2.1', 'Apache-2.0', 'MPL-2.0', 'GFDL-1.3', 'Artistic'];

/**
 * The benches' text: Debian's licences with each paragraph's lines joined (as a writer's text
 * comes, not wrapped at 72 columns), repeated until it holds `chars` characters.
 */
export function benchText(chars: number): string {
  const paragraphs = BENCH_LICENCES.flatMap((name) =>
    readFileSync(path.join('/usr/share/common-licenses', name), 'utf8')
      .split(/\n\s*\n/)
      .map((p) => p.replace(/\s+/g, ' ').trim())
      .filter(Boolean),
  );
  const once = paragraphs.join('\n\n');
  return once.repeat(Math.ceil(chars / once.length)).slice(0, chars);
}
