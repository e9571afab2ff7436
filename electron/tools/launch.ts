/** The launchers' common part (`npm start`, `npm run serve`): a program in a child process that has this terminal. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { gatewayEnv, gatewayNodeArgs } from '../gateway-process';

/**
 * Runs the program with this terminal and exits with its code. SIGTERM is passed on. Ctrl+C sends
 * SIGINT to the child as well (it is in this process group): passing it on would be its second,
 * which stops it without draining, so this process only waits for it.
 */
export function runAttached(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const child = spawn(command, args, { stdio: 'inherit', env });
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  process.on('SIGINT', () => undefined);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

/** The headless gateway as built by `npm run build`, with its process's memory settings. */
export function runHeadlessGateway(args: string[]): void {
  const serve = fileURLToPath(new URL('../../dist/serve.mjs', import.meta.url));
  runAttached(process.execPath, gatewayNodeArgs(serve, args), gatewayEnv());
}
