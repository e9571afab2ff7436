/**
 * Builds the Node side with esbuild: the headless gateway, a worker host, the synthesis worker
 * threads, the spawn host that starts engine programs, the desktop app's main process (ESM) and preload (CommonJS: Electron loads sandboxed
 * preloads only so), and the `orator` command (package.json's bin).
 */
import { build, type BuildOptions } from 'esbuild';
import { chmod, rm } from 'node:fs/promises';

const common: BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
};

// chunk names carry a hash: the last build's would stay beside this one's (and be packaged)
await Promise.all(['dist/chunks', 'dist/cli-chunks'].map((dir) => rm(dir, { recursive: true, force: true })));

await Promise.all([
  build({
    ...common,
    entryPoints: {
      serve: 'electron/serve.ts',
      'worker-host': 'electron/worker-host.ts',
      'synth-worker': 'electron/engines/worker.ts',
      'spawn-host': 'electron/engines/spawn-host/host.ts',
      main: 'electron/main.ts',
    },
    outdir: 'dist',
    outExtension: { '.js': '.mjs' },
    format: 'esm',
    // what is imported dynamically (codecs, the Redis queue, Word manuscripts) loads when first used
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    packages: 'external',
  }),
  build({
    ...common,
    entryPoints: { cli: 'electron/cli/bin.ts' },
    outdir: 'dist',
    outExtension: { '.js': '.mjs' },
    format: 'esm',
    // the encoders load only when the command transcodes
    splitting: true,
    chunkNames: 'cli-chunks/[name]-[hash]',
    packages: 'external',
    banner: { js: '#!/usr/bin/env node' },
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
// run directly too (./dist/cli.mjs); npm links it as the `orator` bin
await chmod('dist/cli.mjs', 0o755);
