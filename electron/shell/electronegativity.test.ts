/**
 * Electronegativity, Electron's security linter, over the main process, the preload and the shell:
 * no HIGH finding. A deliberately insecure canary file is scanned with them, to prove the scanner
 * parses these sources and would report a HIGH finding if one were there.
 */
import { copyFile, cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';

interface Finding {
  id: string;
  file: string;
  severity: { name: string };
  location: { line: number };
}
type Scan = (options: { input: string; electronVersionOverride: string; parserPlugins: string[] }) => Promise<{ issues: Finding[] }>;
const scan = createRequire(import.meta.url)('@doyensec/electronegativity') as Scan;

const CANARY = `import { BrowserWindow } from 'electron';
new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false } });
`;

let dir: string;
afterAll(() => rm(dir, { recursive: true, force: true }));

it('finds no HIGH issue in the desktop shell', async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'orator-electronegativity-'));
  await copyFile('electron/main.ts', path.join(dir, 'main.ts'));
  // The scanner reads .ts but not .cts.
  await copyFile('electron/preload.cts', path.join(dir, 'preload.ts'));
  await cp('electron/shell', path.join(dir, 'shell'), {
    recursive: true,
    filter: (src) => !src.endsWith('.test.ts') && !src.includes('testing'),
  });
  await copyFile('dist/renderer/index.html', path.join(dir, 'index.html'));
  await writeFile(path.join(dir, 'canary.ts'), CANARY);

  const { issues } = await scan({ input: dir, electronVersionOverride: '41.7.1', parserPlugins: [] });
  const high = issues.filter((i) => i.severity.name === 'HIGH');
  expect(high.filter((i) => path.basename(i.file) === 'canary.ts').length).toBeGreaterThan(0);
  const ours = high
    .filter((i) => path.basename(i.file) !== 'canary.ts')
    .map((i) => `${i.id} ${path.relative(dir, i.file)}:${i.location.line}`);
  expect(ours).toEqual([]);
});
