import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adversarialLine, cpuMs, WELL_UNDER_A_SECOND_MS } from '../testing/cpu';
import { plainMarkdown, withoutEmphasis } from './markdown-text';

/** The rule withoutEmphasis replaces: the same answer, in quadratic time. */
const EMPHASIS = /(\*\*|__|\*|_|`)(?=\S)([^]*?\S)\1/g;

describe('plainMarkdown', () => {
  it('reads emphasis, code, links and images as words', () => {
    expect(plainMarkdown('A *b* __c__ `d` and **e f**, **g *h* i**.')).toBe('A b c d and e f, g *h* i.');
    expect(plainMarkdown('[a [b](c) ![x](y.png) [not a link] (here)')).toBe('[a b x [not a link] (here)');
    expect(plainMarkdown('2 * 3 * 4 and a_b_c')).toBe('2 * 3 * 4 and abc');
  });

  it('takes emphasis away exactly as the regular expression it replaces', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('*', '_', '`', 'a', ' ', '\n'), maxLength: 40 }), (text) => {
        expect(withoutEmphasis(text)).toBe(text.replace(EMPHASIS, '$2'));
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['marks that never close', adversarialLine('*a ')],
    ['underscores that never close', adversarialLine('_a ')],
    ['ticks that never close', adversarialLine('`a ')],
    ['links without a target', adversarialLine('[a](')],
    ['images without a target', adversarialLine('![a](')],
    ['brackets that never close', adversarialLine('[')],
    ['a rule that ends in a word', adversarialLine('- ', 'x')],
    ['list markers', adversarialLine('1', 'x')],
  ])('reads a 100,000-character line of %s in well under a second of CPU', (_name, line) => {
    expect(cpuMs(() => plainMarkdown(line))).toBeLessThan(WELL_UNDER_A_SECOND_MS);
  });
});
