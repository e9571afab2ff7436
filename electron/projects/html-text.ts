/**
 * HTML read leniently as text, for manuscripts that come as markup (EPUB's XHTML, a .docx through
 * mammoth), in linear time (markup.ts).
 */
import { tags } from './markup';

const BLOCKS = new Set(
  'p div h1 h2 h3 h4 h5 h6 li ul ol blockquote section article header footer aside figure figcaption table tr pre hr'.split(' '),
);
/** Elements whose content is not text to speak. */
const HIDDEN = new Set(['script', 'style', 'head']);

/** Markup as words: blocks become paragraphs, <br> a line break, other tags nothing. */
export function htmlText(markup: string): string {
  const pieces: string[] = [];
  let copied = 0;
  /** Where each hidden element's closing tag is next found; -1: none left. */
  const closes = new Map<string, number>();
  const closeOf = (name: string, from: number) => {
    const known = closes.get(name);
    if (known === -1 || (known !== undefined && known >= from)) return known;
    const close = new RegExp(`</${name}\\b`, 'gi');
    close.lastIndex = from;
    const found = close.exec(markup)?.index ?? -1;
    closes.set(name, found);
    return found;
  };
  let skipTo = 0;
  for (const tag of tags(markup)) {
    if (tag.start < skipTo) continue;
    pieces.push(markup.slice(copied, tag.start));
    copied = tag.end;
    if (HIDDEN.has(tag.name) && !tag.closing) {
      const close = closeOf(tag.name, tag.end);
      // the content goes with its element, up to the closing tag, which the loop then drops
      if (close !== undefined && close >= 0) copied = skipTo = close;
    } else if (BLOCKS.has(tag.name)) pieces.push('\n\n');
    else if (tag.name === 'br') pieces.push('\n');
  }
  pieces.push(markup.slice(copied));
  return decodeEntities(pieces.join(''))
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  mdash: '—',
  ndash: '–',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  shy: '',
  copy: '©',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}
