/** Places in the markup: the API counts code points, saxes and JavaScript count UTF-16 units. */

/** For each UTF-16 index of `text` (and its end), the code point index there. */
export function codePointIndex(text: string): Uint32Array {
  const index = new Uint32Array(text.length + 1);
  for (let i = 0, n = 0; i <= text.length; i++) {
    index[i] = n;
    if (!isLowSurrogateAt(text, i)) n++;
  }
  return index;
}

function isLowSurrogateAt(text: string, i: number): boolean {
  const unit = text.charCodeAt(i);
  return unit >= 0xdc00 && unit <= 0xdfff && i > 0 && text.charCodeAt(i - 1) >= 0xd800 && text.charCodeAt(i - 1) <= 0xdbff;
}

/** Line and column (from 1; columns in code points) of a UTF-16 offset. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: [...before.slice(lineStart)].length + 1 };
}
