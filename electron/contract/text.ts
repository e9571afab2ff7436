/**
 * Text as the API counts it: lengths are Unicode code points ("𝔸" is 1, JavaScript's length says
 * 2), the same in the gateway's limits and the studio's counters.
 */
export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
