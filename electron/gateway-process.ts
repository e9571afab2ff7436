/**
 * How a headless gateway process is started: `npm start` where Electron cannot run, `npm run serve`,
 * the tests and the bench all start `node dist/serve.mjs` this way. The settings below take effect
 * only when a process starts, so they go in its environment and on its command line; measured in
 * docs/performance.md ("Memory settings of the gateway's process", "V8's heap in the gateway",
 * "Engine threads' typed arrays").
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

/**
 * V8's flags for the gateway's process. A young generation of two 1 MB halves: V8 grew it to two
 * 16 MB halves at start-up and under a job, and kept them (25 MB idle). With it alone, a system
 * engine's job cost more: what lives across a file write is promoted, V8 lowered the old
 * generation's limit, and it ran a full collection every few hundred milliseconds (it did with
 * the defaults too, starting them with the heap far below its limit). Letting the old generation
 * grow by half its live size between collections runs fewer, and the job's CPU falls below the
 * defaults'. Worker threads get the same 1 MB halves their resource limits already gave them
 * (worker-pool.ts). V8's setting for memory over speed took 6–11 MB off a book-length job's peak,
 * with jobs as fast as without it.
 */
const GATEWAY_NODE_FLAGS = ['--max-semi-space-size=1', '--heap-growing-percent=50', '--optimize-for-size'];

/** Node's arguments for a gateway process: its V8 flags, the built entry, then the gateway's own. */
export function gatewayNodeArgs(entry: string, args: string[]): string[] {
  return [...GATEWAY_NODE_FLAGS, entry, ...args];
}
