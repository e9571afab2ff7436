/**
 * How a headless gateway process is started: `npm start` where Electron cannot run, `npm run serve`,
 * the tests and the bench all start `node dist/serve.mjs` this way. The settings below take effect
 * only when a process starts, so they go in its environment; measured in docs/performance.md
 * ("Memory settings of the gateway's process").
 */

/**
 * glibc (Linux; ignored elsewhere) gives each thread that allocates an arena of its own, up to
 * 8 per core, and raises the size from which it maps a block on its own (returned to the system
 * when freed) up to 32 MB as large blocks are freed: after the first few chunks, every chunk's
 * audio lands in those arenas, which keep what is freed. Two arenas and glibc's initial threshold
 * held fixed give it back. A value already in the environment wins.
 */
const GATEWAY_MALLOC_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' };

export function gatewayEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...GATEWAY_MALLOC_ENV, ...env };
}
