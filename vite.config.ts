import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: { outDir: '../dist/renderer', emptyOutDir: true },
  test: {
    root: '.',
    include: ['electron/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests start real gateways with worker threads; two cores share them.
    fileParallelism: false,
  },
});
