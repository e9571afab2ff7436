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
    // the client sits on the contract alone, and runs in the page: no Node
    expect(await layerErrors('electron/client/canary.ts', "import '../audio/wav';\n")).toEqual([
      expect.stringContaining('client may not import a higher layer'),
    ]);
    expect(await layerErrors('electron/client/canary.ts', "import 'node:fs';\n")).toEqual([
      expect.stringContaining("runs in the studio's page too"),
    ]);
    expect(await layerErrors('electron/contract/canary.ts', "import '../client/client';\n")).toHaveLength(1);
    // the command line and the worker hosts sit above the gateway, below the desktop shell
    expect(await layerErrors('electron/cli/canary.ts', "import '../shell/window';\n")).toEqual([
      expect.stringContaining('cli/worker-host may not import a higher layer'),
    ]);
    expect(await layerErrors('electron/worker-host/canary.ts', "import '../shell/window';\n")).toHaveLength(1);
    expect(await layerErrors('electron/gateway/canary.ts', "import '../cli/connection';\n")).toHaveLength(1);
  });

  it('lets imports go down and the renderer reach the contract and bridge types', async () => {
    expect(await layerErrors('electron/gateway/canary.ts', "import '../jobs/store';\nimport 'fastify';\n")).toEqual([]);
    expect(await layerErrors('electron/jobs/canary.ts', "import '../contract';\n")).toEqual([]);
    expect(await layerErrors('electron/client/canary.ts', "import '../contract/routes/route';\n")).toEqual([]);
    expect(await layerErrors('electron/cli/canary.ts', "import '../client/client';\nimport '../gateway/identity';\n")).toEqual([]);
    expect(
      await layerErrors(
        'renderer/src/canary.ts',
        "import '../../electron/contract';\nimport '../../electron/client';\nimport type {} from '../../electron/shell/bridge';\n",
      ),
    ).toEqual([]);
  });
});
