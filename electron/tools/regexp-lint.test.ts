/**
 * The linear-time rule of eslint.config.js guards itself: a pattern that backtracks or rescans in
 * more than linear time must fail lint wherever it is written, so that the class of stalls issue
 * 29 found (a heading pattern holding the gateway 12 s on one line) cannot come back.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function regexpRules(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((m) => m.ruleId ?? '').filter((rule) => rule.startsWith('regexp/'));
}

describe('linear-time rule (canary)', () => {
  it('refuses a super-linear regular expression in the gateway, the studio and tests', async () => {
    const heading = 'export const HEADING = /^#{1,2}[ \\t]+(.+?)[ \\t]*#*[ \\t]*$/;\n';
    const trailing = "export const trim = (text: string) => text.replace(/[\\s.,]+$/, '');\n";
    expect(await regexpRules('electron/contract/canary.ts', heading)).toContain('regexp/no-super-linear-backtracking');
    expect(await regexpRules('electron/projects/canary.ts', trailing)).toEqual(['regexp/no-super-linear-move']);
    expect(await regexpRules('renderer/src/canary.ts', trailing)).toEqual(['regexp/no-super-linear-move']);
    expect(await regexpRules('electron/gateway/canary.test.ts', trailing)).toEqual(['regexp/no-super-linear-move']);
  });

  it('lets their linear forms pass', async () => {
    const heading = 'export const HEADING = /^ {0,3}#{1,2}[ \\t]/;\n';
    const link = "export const words = (text: string) => text.replace(/\\[([^[\\]]+)\\]\\([^()]*\\)/g, '$1');\n";
    expect(await regexpRules('electron/contract/canary.ts', heading)).toEqual([]);
    expect(await regexpRules('electron/projects/canary.ts', link)).toEqual([]);
  });
});
