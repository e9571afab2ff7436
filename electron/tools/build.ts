/**
 * Builds the Node side with esbuild: the headless gateway, a worker host, the synthesis worker
 * threads, the thread that reads manuscript files, the spawn host that starts engine programs,
 * the thread that unpacks voice archives, the export threads that encode books, the desktop app's main process (ESM) and preload
 * (CommonJS: Electron loads sandboxed preloads only so), and the `orator` command (package.json's bin).
 */
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { chmod, readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const common: BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  // the files written, to remove the chunks of earlier builds afterwards
  metafile: true,
};

/**
 * TypeBox inside the `orator` command: loaded from node_modules it is some 300 small files, and
 * opening them was most of a command's start (0.6 s of CPU for `orator --help`, 0.2 s bundled).
 */
const bundleTypebox: Plugin = {
  name: 'bundle-typebox',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^typebox(\/|$)/ }, (args) => ({ path: fileURLToPath(import.meta.resolve(args.path)) }));
  },
};

/**
 * FFmpeg's AAC encoder module, which its package does not export, for the export threads
 * (audio/encode/aac-sink.ts; vite.config.ts points the tests at it too): bundled. It is
 * an ES module (it reads `import.meta.url`) that TypeScript gave CommonJS exports; they are made
 * ES exports again, or esbuild takes it for ESM and finds no default export.
 */
const COMMONJS_EXPORTS = ['Object.defineProperty(exports, "__esModule", { value: true });', 'exports.default = Module;'];
const bundleAacModule: Plugin = {
  name: 'bundle-aac-module',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^@mediabunny\/aac-encoder\/wasm$/ }, () => ({
      path: fileURLToPath(new URL('../modules/build/aac.js', import.meta.resolve('@mediabunny/aac-encoder'))),
      namespace: 'aac-module',
    }));
    esbuild.onLoad({ filter: /.*/, namespace: 'aac-module' }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!COMMONJS_EXPORTS.every((line) => source.split(line).length === 2))
        throw new Error(`${args.path}: not the module aac-sink.ts expects`);
      const contents = source.replace(COMMONJS_EXPORTS[0]!, '').replace(COMMONJS_EXPORTS[1]!, 'export default Module;');
      return { contents, loader: 'js', resolveDir: path.dirname(args.path) };
    });
  },
};

const results = await Promise.all([
  build({
    ...common,
    entryPoints: {
      serve: 'electron/serve.ts',
      'worker-host': 'electron/worker-host.ts',
      'synth-worker': 'electron/engines/worker.ts',
      'document-worker': 'electron/projects/document-worker.ts',
      'spawn-host': 'electron/engines/spawn-host/host.ts',
      'unpack-worker': 'electron/voices/unpack-worker.ts',
      'export-worker': 'electron/jobs/export/segment-worker.ts',
      main: 'electron/main.ts',
    },
    outdir: 'dist',
    outExtension: { '.js': '.mjs' },
    format: 'esm',
    // what is imported dynamically (codecs, the Redis queue, Word manuscripts) loads when first used
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    packages: 'external',
    plugins: [bundleAacModule],
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
    plugins: [bundleTypebox, bundleAacModule],
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

// Chunk names carry a hash: an earlier build's would stay beside this one's, and be packaged. They
// go after the build, not before it: a gateway started from dist/ meanwhile (a test running
// `npm start` beside others) keeps finding the chunks it imports, which a build of the same
// sources writes again under the same names.
const written = new Set(results.flatMap((result) => Object.keys(result.metafile!.outputs).map((file) => path.resolve(file))));
for (const dir of ['dist/chunks', 'dist/cli-chunks']) {
  const stale = (await readdir(dir)).map((name) => path.resolve(dir, name)).filter((file) => !written.has(file));
  await Promise.all(stale.map((file) => rm(file, { force: true })));
}
