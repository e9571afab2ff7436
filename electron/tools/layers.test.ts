/**
 * The layer rule of eslint.config.js guards itself: a deliberate wrong import in each direction
 * must fail lint, so a broken pattern (a typo, a glob that matches nothing) cannot pass silently.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layer rule (canary)', () => {
  it('refuses imports of higher layers and of HTTP or Electron in the core', async () => {
    expect(await layerErrors('electron/jobs/canary.ts', "import '../gateway/server';\n")).toEqual([
      expect.stringContaining('jobs may not import a higher layer'),
    ]);
    expect(await layerErrors('electron/settings/canary.ts', "import '../gateway/config';\n")).toHaveLength(1);
    expect(await layerErrors('electron/engines/canary.ts', "import 'fastify';\n")).toEqual([
      expect.stringContaining('Core modules stay free of HTTP and Electron'),
    ]);
    expect(await layerErrors('electron/audio/canary.ts', "import 'electron';\n")).toHaveLength(1);
    expect(await layerErrors('renderer/src/canary.ts', "import '../../electron/jobs/store';\n")).toEqual([
      expect.stringContaining('The renderer imports only electron/contract'),
    ]);
  });

  it('lets imports go down and the renderer reach the contract and bridge types', async () => {
    expect(await layerErrors('electron/gateway/canary.ts', "import '../jobs/store';\nimport 'fastify';\n")).toEqual([]);
    expect(await layerErrors('electron/jobs/canary.ts', "import '../contract';\n")).toEqual([]);
    expect(
      await layerErrors(
        'renderer/src/canary.ts',
        "import '../../electron/contract';\nimport type {} from '../../electron/shell/bridge';\n",
      ),
    ).toEqual([]);
  });
});
