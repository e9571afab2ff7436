/** Builds the Node side with esbuild: the headless gateway and the synthesis worker threads. */
import { build } from 'esbuild';

await build({
  entryPoints: {
    serve: 'electron/serve.ts',
    'synth-worker': 'electron/engines/worker.ts',
  },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
