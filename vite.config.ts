import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: { outDir: '../dist/renderer', emptyOutDir: true },
  test: {
    root: '.',
    include: ['electron/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}'],
    // The two-hour book (synthesized and exported whole: about 6 min on two cores) runs with
    // `npm run test:book`, not in `npm test`, whose budget is minutes (docs/audiobook.md).
    exclude: process.env.ORATOR_BOOK_TEST ? [] : ['electron/gateway/long-book.test.ts'],
    // FFmpeg's AAC encoder module, which its package does not export (bundled by electron/tools/build.ts)
    alias: {
      '@mediabunny/aac-encoder/wasm': fileURLToPath(new URL('../modules/build/aac.js', import.meta.resolve('@mediabunny/aac-encoder'))),
    },
    server: { deps: { inline: [/aac-encoder\/dist\/modules\/build/] } },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two files at a time: integration tests start real gateways with worker threads and wait on
    // engines and processes, so two cores are busier with two (935 s sequential, 661 s so).
    // Tests with timings leave room for the other file's load (engine-faults, encoder).
    fileParallelism: true,
    maxWorkers: 2,
    // Each worker runs its files one after another in one module graph: the gateway's modules,
    // its route schemas and the engines' probes are loaded once per worker, not once per file
    // (import 200 s → 46 s, the run 868 s → 679 s, README). Every test still starts its own gateway.
    isolate: false,
  },
});
