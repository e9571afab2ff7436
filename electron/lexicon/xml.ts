/**
 * A small, strict XML reader for lexicon files: elements, attributes, text, CDATA, comments and
 * the predefined and numeric character references. A DOCTYPE is refused outright, so no entity is
 * ever defined or expanded (no "billion laughs", no external files). Errors carry line and column.
 */

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: (XmlElement | string)[];
  line: number;
  column: number;
}

export class XmlError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${message} (line ${line}, column ${column})`);
    this.name = 'XmlError';
  }
}

const NAME = /[A-Za-z_][\w.\-:]*/y;
/** Lexicon files are three levels deep; a deep nest is an attack on the reader's stack. */
const MAX_DEPTH = 16;
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function parseXml(source: string): XmlElement {
  let at = source.charCodeAt(0) === 0xfeff ? 1 : 0;

  const lineStarts = [0];
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  /** Line and column (from 1) of an offset, by binary search: elements are many and files long. */
  const position = (offset: number) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (lineStarts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - lineStarts[low]! + 1 };
  };
  const fail = (message: string, where = at): never => {
    const { line, column } = position(where);
    throw new XmlError(message, line, column);
  };
  const startsWith = (text: string) => source.startsWith(text, at);
  const skipSpace = () => {
    while (at < source.length && /\s/.test(source[at]!)) at++;
  };
  const skipPast = (end: string, what: string) => {
    const found = source.indexOf(end, at);
    if (found < 0) fail(`Unclosed ${what}`);
    at = found + end.length;
  };
  const name = (): string => {
    NAME.lastIndex = at;
    const match = NAME.exec(source);
    if (!match) return fail('Expected a name');
    at += match[0].length;
    return match[0];
  };
  const decode = (raw: string, offset: number): string =>
    raw.replace(/&([^;&\s]*);?/g, (whole, ref: string, index: number) => {
      if (!whole.endsWith(';')) fail('"&" must start a reference such as &amp;', offset + index);
      if (ref in PREDEFINED) return PREDEFINED[ref]!;
      const code = /^#x([0-9a-f]{1,6})$/i.exec(ref)?.[1] ?? /^#(\d{1,7})$/.exec(ref)?.[1];
      const value = code === undefined ? NaN : parseInt(code, ref[1] === 'x' || ref[1] === 'X' ? 16 : 10);
      if (!Number.isFinite(value) || value > 0x10ffff || value < 0x20) fail(`Unknown or invalid reference &${ref};`, offset + index);
      return String.fromCodePoint(value);
    });

  /** Skips what may stand between elements: space, comments, processing instructions. */
  const skipMisc = () => {
    for (;;) {
      skipSpace();
      if (startsWith('<!--')) skipPast('-->', 'comment');
      else if (startsWith('<?')) skipPast('?>', 'processing instruction');
      else if (startsWith('<!DOCTYPE') || startsWith('<!doctype')) fail('A DOCTYPE is not allowed in a lexicon file');
      else return;
    }
  };

  const element = (depth: number): XmlElement => {
    const start = at;
    if (depth > MAX_DEPTH) fail(`Elements are nested deeper than ${MAX_DEPTH}`);
    if (!startsWith('<')) fail('Expected an element');
    at++;
    const node: XmlElement = { name: name(), attributes: {}, children: [], ...position(start) };
    for (;;) {
      const hadSpace = /\s/.test(source[at] ?? '');
      skipSpace();
      if (startsWith('/>')) {
        at += 2;
        return node;
      }
      if (startsWith('>')) {
        at++;
        break;
      }
      if (!hadSpace) fail('Expected a space, ">" or "/>"');
      const attribute = name();
      skipSpace();
      if (source[at] !== '=') fail(`Expected "=" after ${attribute}`);
      at++;
      skipSpace();
      const quote = source[at];
      if (quote !== '"' && quote !== "'") return fail('An attribute value must be quoted');
      const end = source.indexOf(quote, at + 1);
      if (end < 0) fail('Unclosed attribute value');
      const raw = source.slice(at + 1, end);
      if (raw.includes('<')) fail('"<" in an attribute value', at + 1 + raw.indexOf('<'));
      if (attribute in node.attributes) fail(`Attribute ${attribute} given twice`);
      node.attributes[attribute] = decode(raw, at + 1);
      at = end + 1;
    }
    for (;;) {
      if (at >= source.length) fail(`Element <${node.name}> is not closed`);
      if (startsWith('</')) {
        at += 2;
        const closing = name();
        if (closing !== node.name) fail(`</${closing}> closes <${node.name}>`);
        skipSpace();
        if (source[at] !== '>') fail('Expected ">"');
        at++;
        return node;
      }
      if (startsWith('<!--')) skipPast('-->', 'comment');
      else if (startsWith('<![CDATA[')) {
        const from = at + 9;
        skipPast(']]>', 'CDATA section');
        node.children.push(source.slice(from, at - 3));
      } else if (startsWith('<?')) skipPast('?>', 'processing instruction');
      else if (startsWith('<!')) fail('Unexpected markup declaration');
      else if (startsWith('<')) node.children.push(element(depth + 1));
      else {
        const end = source.indexOf('<', at);
        const stop = end < 0 ? source.length : end;
        node.children.push(decode(source.slice(at, stop), at));
        at = stop;
      }
    }
  };

  skipMisc();
  const root = element(0);
  skipMisc();
  if (at < source.length) fail('Content after the root element');
  return root;
}

/** The text inside an element, its descendants' included. */
export function textOf(node: XmlElement): string {
  return node.children.map((child) => (typeof child === 'string' ? child : textOf(child))).join('');
}

/** The local part of a possibly prefixed name: "pls:lexeme" → "lexeme". */
export const localName = (name: string) => name.slice(name.indexOf(':') + 1);

export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot', "'": 'apos' }[c]!};`);
}
