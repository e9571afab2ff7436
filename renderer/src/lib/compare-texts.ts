/**
 * A compare session's texts as one field holds them (the compare slice's compareText): texts
 * separated by a line of three dashes.
 */

/** The texts of the field, blank ones left out (read line by line: linear). */
export function splitTexts(draft: string): string[] {
  const texts: string[][] = [[]];
  for (const line of draft.split('\n')) {
    if (line.trim() === '---') texts.push([]);
    else texts.at(-1)!.push(line);
  }
  return texts.map((lines) => lines.join('\n').trim()).filter(Boolean);
}

/** The field for a session's texts. */
export const joinTexts = (texts: readonly string[]) => texts.join('\n---\n');
