/**
 * Builds the Node side with esbuild: the headless gateway, a worker host, the synthesis worker threads, and the
 * desktop app's main process (ESM) and preload (CommonJS: Electron loads sandboxed preloads only so).
 */
import { build, type BuildOptions } from 'esbuild';

const common: BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
};

await Promise.all([
  build({
    ...common,
    entryPoints: {
      serve: 'electron/serve.ts',
      'worker-host': 'electron/worker-host.ts',
      'synth-worker': 'electron/engines/worker.ts',
      main: 'electron/main.ts',
    },
    outdir: 'dist',
    outExtension: { '.js': '.mjs' },
    format: 'esm',
    packages: 'external',
  }),
  build({
    ...common,
    entryPoints: { preload: 'electron/preload.cts' },
    outdir: 'dist',
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    // A sandboxed preload can require nothing but `electron`: everything else is bundled in.
    external: ['electron'],
  }),
]);
