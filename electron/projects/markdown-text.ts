/**
 * A line of Markdown as it is read aloud: emphasis, code ticks, link targets, images, quote and
 * list markers, and rules go; the words stay. Every rule reads the line in linear time: a client
 * sends the manuscript, and one long line must not hold the reader for seconds.
 */
export function plainMarkdown(line: string): string {
  return withoutEmphasis(
    line
      .replace(/^ {0,3}(?:[-*_][ \t]*){3,}$/, '')
      // a bracket or parenthesis ends each class, so a start never scans past the next one
      .replace(/!\[([^[\]]*)\]\([^()]*\)/g, '$1')
      .replace(/\[([^[\]]+)\]\([^()]*\)/g, '$1')
      .replace(/^ {0,3}>[ \t]?/, '')
      .replace(/^ {0,3}(?:[-*+]|\d+[.)])[ \t]+/, ''),
  ).replace(/^ {0,3}#{1,6}[ \t]+/, '');
}

/** Emphasis and code marks, longest first where two could open at one place. */
const MARKS = ['**', '__', '*', '_', '`'];
const isSpace = (char: string | undefined) => char === undefined || /\s/.test(char);

/**
 * The text with each emphasis or code span's marks taken away: a mark followed by a non-space
 * opens, the nearest same mark after a non-space closes, and what a span held is not read again
 * (as /(\*\*|__|\*|_|`)(?=\S)([^]*?\S)\1/g would do, but that rescans the rest of the line from
 * every mark that never closes: quadratic). The closing places of each mark are listed once, and
 * each list is walked forward only.
 */
export function withoutEmphasis(text: string): string {
  const closers = MARKS.map((mark) => {
    const places: number[] = [];
    for (let at = text.indexOf(mark, 1); at >= 0; at = text.indexOf(mark, at + 1)) if (!isSpace(text[at - 1])) places.push(at);
    return places;
  });
  const next = MARKS.map(() => 0);
  let out = '';
  let copied = 0;
  let at = 0;
  while (at < text.length) {
    const char = text[at];
    let closedAt = -1;
    if (char === '*' || char === '_' || char === '`') {
      for (let m = 0; m < MARKS.length && closedAt < 0; m++) {
        const mark = MARKS[m]!;
        const start = at + mark.length;
        if (!text.startsWith(mark, at) || isSpace(text[start])) continue;
        const places = closers[m]!;
        while (next[m]! < places.length && places[next[m]!]! <= start) next[m]!++;
        if (next[m]! === places.length) continue;
        closedAt = places[next[m]!]!;
        out += text.slice(copied, at) + text.slice(start, closedAt);
        copied = at = closedAt + mark.length;
      }
    }
    if (closedAt < 0) at++;
  }
  return out + text.slice(copied);
}
