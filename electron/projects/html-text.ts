/**
 * HTML read leniently as text, for manuscripts that come as markup (EPUB's XHTML, a .docx through
 * mammoth): real books carry entities (`&nbsp;`) only their DTD declares, which a strict XML parser
 * refuses.
 */
const BLOCK = /<\/?(?:p|div|h[1-6]|li|ul|ol|blockquote|section|article|header|footer|aside|figure|figcaption|table|tr|pre|hr)\b[^>]*>/gi;

/** Markup as words: blocks become paragraphs, <br> a line break, other tags nothing. */
export function htmlText(markup: string): string {
  return decodeEntities(
    markup
      .replace(/<!--[^]*?-->/g, '')
      .replace(/<(script|style|head)\b[^>]*>[^]*?<\/\1>/gi, '')
      .replace(BLOCK, '\n\n')
      .replace(/<br\b[^>]*>/gi, '\n')
      .replace(/<[^>]*>/g, ''),
  )
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
