/**
 * Tags of HTML or XML read leniently (EPUB's XHTML and package files, mammoth's HTML): real books
 * carry entities only their DTD declares, which a strict XML parser refuses. Every search starts
 * where the last one ended or is remembered, so a manuscript is read in linear time however its
 * markup is broken: patterns such as /<body\b[^>]*>/ rescan the rest of the text from each "<"
 * that never closes (a 1.5 KB EPUB held the gateway 44 s).
 */

export interface Tag {
  /** Lower case, without a namespace prefix ("opf:item" is "item"); "!" for comments and declarations, "?" for instructions. */
  name: string;
  closing: boolean;
  /** The tag's "<" and the place after its ">". */
  start: number;
  end: number;
}

const NAME = /[A-Za-z][\w:.-]*/y;

/** The tags of `markup` in order, comments among them; a "<" that starts no tag is text. */
export function* tags(markup: string): Generator<Tag> {
  // the next ">" at or after a place: found once, it serves every "<" before it; none found, none later
  let nextGt = -1;
  const gtFrom = (from: number) => {
    if (nextGt < from) {
      const found = markup.indexOf('>', from);
      nextGt = found < 0 ? Infinity : found;
    }
    return nextGt;
  };
  let at = markup.indexOf('<');
  while (at >= 0) {
    if (markup.startsWith('<!--', at)) {
      // a comment not closed runs to the end, as browsers read it
      const close = markup.indexOf('-->', at + 4);
      const end = close < 0 ? markup.length : close + 3;
      yield { name: '!', closing: false, start: at, end };
      at = markup.indexOf('<', end);
      continue;
    }
    const gt = gtFrom(at + 1);
    if (gt === Infinity) return;
    const closing = markup[at + 1] === '/';
    const first = markup[at + 1];
    let name: string | undefined;
    if (first === '!' || first === '?') name = first;
    else {
      NAME.lastIndex = at + (closing ? 2 : 1);
      name = NAME.exec(markup)?.[0];
    }
    if (name === undefined) {
      at = markup.indexOf('<', at + 1);
      continue;
    }
    yield { name: localName(name.toLowerCase()), closing, start: at, end: gt + 1 };
    at = markup.indexOf('<', gt + 1);
  }
}

const localName = (name: string) => name.slice(name.lastIndexOf(':') + 1);

/** A tag's attributes by lower-case name, values as written (entities not decoded). Each character is looked at once. */
export function attributesOf(tag: string): Map<string, string> {
  const attributes = new Map<string, string>();
  let at = tag.search(/[\s/>]/);
  const isSpace = (char: string | undefined) => char !== undefined && /\s/.test(char);
  while (at >= 0 && at < tag.length) {
    while (isSpace(tag[at]) || tag[at] === '/') at++;
    const nameStart = at;
    while (at < tag.length && !isSpace(tag[at]) && !'=/>'.includes(tag[at]!)) at++;
    const name = tag.slice(nameStart, at).toLowerCase();
    while (isSpace(tag[at])) at++;
    if (!name) return attributes;
    if (tag[at] !== '=') continue;
    at++;
    while (isSpace(tag[at])) at++;
    const quote = tag[at];
    let value: string;
    if (quote === '"' || quote === "'") {
      const close = tag.indexOf(quote, at + 1);
      value = tag.slice(at + 1, close < 0 ? tag.length : close);
      at = close < 0 ? tag.length : close + 1;
    } else {
      const valueStart = at;
      while (at < tag.length && !isSpace(tag[at]) && tag[at] !== '>') at++;
      value = tag.slice(valueStart, at);
    }
    if (!attributes.has(name)) attributes.set(name, value);
  }
  return attributes;
}
