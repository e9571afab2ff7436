/**
 * The size rule of eslint.config.js guards itself: a module past 300 counted lines and a function
 * (or component) past 80 must fail lint in the main process and the studio, blank and comment lines
 * must not count, and tests and test support must stay exempt; a glob that matched nothing would
 * otherwise let every file pass.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function sizeRules(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((m) => m.ruleId ?? '').filter((rule) => rule.startsWith('max-lines'));
}

/** `count` short statements, one a line, each using its own name. */
const statements = (count: number, indent = '') =>
  Array.from({ length: count }, (_, i) => `${indent}export const value${i} = ${i};`).join('\n') + '\n';

/** A function of `count` lines, its first and last included. */
const functionOf = (count: number) =>
  `export function long(): number {\n  let n = 0;\n${Array.from({ length: count - 4 }, () => '  n += 1;').join('\n')}\n  return n;\n}\n`;

describe('size rule (canary)', () => {
  it('refuses a module past 300 lines and a function past 80, in the main process and the studio', async () => {
    expect(await sizeRules('electron/jobs/canary.ts', statements(301))).toEqual(['max-lines']);
    expect(await sizeRules('renderer/src/canary.ts', statements(301))).toEqual(['max-lines']);
    expect(await sizeRules('electron/shell/canary.ts', functionOf(81))).toEqual(['max-lines-per-function']);
    const component = `export function Panel() {\n  return (\n    <div>\n${'      <p>line</p>\n'.repeat(78)}    </div>\n  );\n}\n`;
    expect(await sizeRules('renderer/src/Panel.tsx', component)).toEqual(['max-lines-per-function']);
  });

  it('counts neither blank nor comment lines, and leaves tests and test support alone', async () => {
    expect(await sizeRules('electron/jobs/canary.ts', statements(300))).toEqual([]);
    expect(await sizeRules('electron/jobs/canary.ts', statements(300) + '\n// a comment\n'.repeat(50))).toEqual([]);
    expect(await sizeRules('electron/shell/canary.ts', functionOf(80))).toEqual([]);
    expect(await sizeRules('electron/jobs/canary.test.ts', statements(400))).toEqual([]);
    expect(await sizeRules('renderer/src/Panel.test.tsx', statements(400))).toEqual([]);
    expect(await sizeRules('electron/testing/canary.ts', functionOf(200))).toEqual([]);
  });
});
