// Lint: typescript-eslint, React hooks, regular expressions in linear time, the layer rule that keeps each concern in its place, and the size of modules and functions.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import regexp from 'eslint-plugin-regexp';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The main process's layers, lowest first: a layer imports only layers below it (docs/architecture.md).
 * Folders on one line are one layer. main.ts, serve.ts, preload, tools/ and testing/ sit above all.
 */
export const LAYERS = [
  ['contract'],
  ['client'],
  ['audio', 'storage', 'lexicon'],
  ['engines'],
  ['jobs'],
  ['ssml'],
  ['projects'],
  ['voices'],
  ['services', 'settings'],
  ['gateway'],
  ['cli', 'worker-host'],
  ['shell'],
];

/** Layers that run in the studio's page too: no Node module (the renderer bundle would not build). */
const BROWSER_LAYERS = ['contract', 'client'];

/** Packages that belong to the HTTP and desktop edges: the core (below gateway) never imports them. */
const EDGE_PACKAGES = ['electron', 'fastify', '@fastify/*'];

function layerRules() {
  const gatewayLayer = LAYERS.findIndex((layer) => layer.includes('gateway'));
  // The top layer may import every other one: no rule for it.
  return LAYERS.slice(0, -1).map((layer, index) => {
    const above = LAYERS.slice(index + 1).flat();
    const patterns = [{ group: above.map((folder) => `**/${folder}/**`), message: `${layer.join('/')} may not import a higher layer.` }];
    if (index < gatewayLayer) {
      patterns.push({ group: EDGE_PACKAGES, message: 'Core modules stay free of HTTP and Electron; the gateway and shell own those.' });
    }
    if (layer.some((folder) => BROWSER_LAYERS.includes(folder))) {
      patterns.push({ group: ['node:*'], message: `${layer.join('/')} runs in the studio's page too: no Node modules.` });
    }
    return {
      files: layer.map((folder) => `electron/${folder}/**/*.{ts,cts}`),
      ignores: ['**/*.test.ts', '**/testing/**'],
      rules: { 'no-restricted-imports': ['error', { patterns }] },
    };
  });
}

export default tseslint.config(
  { ignores: ['dist/', 'release/', 'test-results/', 'playwright-report/', 'e2e/artifacts/', 'node_modules/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // The service worker that lends the key to the studio's own audio requests.
    files: ['renderer/public/*.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    // The studio is a client of the API: it sees the contract, the client and the desktop bridge's types, nothing else.
    files: ['renderer/**/*.{ts,tsx}'],
    ignores: ['renderer/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // gitignore rules: a file cannot be let back in below an excluded folder, so exclude level by level
              group: [
                '**/electron/*',
                '!**/electron/contract',
                '!**/electron/client',
                '!**/electron/shell',
                '**/electron/shell/*',
                '!**/electron/shell/bridge',
              ],
              message: 'The renderer imports only electron/contract, electron/client and the bridge types.',
            },
          ],
        },
      ],
    },
  },
  {
    // Text rules run on whatever a client sends: a pattern that backtracks or rescans stalls every client.
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
    },
  },
  {
    // Size: a module past 300 lines or a function past 80 (a React component too) does more than one job; split it by
    // role (docs/architecture.md). Tests and test support may be longer: a scenario reads best in one piece.
    files: ['electron/**/*.{ts,cts}', 'renderer/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', '**/testing/**', 'e2e/**'],
    rules: {
      'max-lines': ['error', { max: 300, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  ...layerRules(),
);
