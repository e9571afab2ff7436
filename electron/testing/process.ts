/** Test support: the headless gateway as a real child process, started as `npm run serve` starts it (gateway-process.ts). */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gatewayEnv, gatewayNodeArgs } from '../gateway-process';

export interface GatewayProcess {
  child: ChildProcess;
  url: string;
  apiKey: string;
  api(route: string, init?: RequestInit): Promise<Response>;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
}

const LINE = /Orator gateway at (http:\/\/[^/\s]+)\/.*\n/;

/**
 * The key, as a client of this gateway would find it: the start-up line shows it only on a
 * terminal, so it is read from the file the line names, or is the one the test gave.
 */
function keyOf(line: string, args: string[], env: NodeJS.ProcessEnv): string {
  const file = /API key (?:saved in|in|from --api-key-file|from ORATOR_API_KEY_FILE) (\S+)/.exec(line)?.[1];
  if (file) return readFileSync(file, 'utf8').trim();
  const flag = args.indexOf('--api-key');
  const given = flag >= 0 ? args[flag + 1] : env.ORATOR_API_KEY;
  if (given === undefined) throw new Error(`No API key found for: ${line}`);
  return given;
}

/** `launcher`: a command that runs the gateway, e.g. in another mount namespace (see small-disk.ts). */
export function spawnGateway(args: string[], env: NodeJS.ProcessEnv = process.env, launcher: string[] = []): Promise<GatewayProcess> {
  const command = [...launcher, process.execPath, ...gatewayNodeArgs(path.resolve('dist/serve.mjs'), ['--port', '0', ...args])];
  const child = spawn(command[0]!, command.slice(1), { env: gatewayEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = () => {
      const match = LINE.exec(output);
      if (!match) return;
      child.stdout!.off('data', onData);
      const url = match[1]!;
      let apiKey: string;
      try {
        apiKey = keyOf(match[0], args, env);
      } catch (error) {
        return reject(error as Error);
      }
      resolve({
        child,
        url,
        apiKey,
        api: (route, init = {}) => fetch(url + route, { ...init, headers: { authorization: `Bearer ${apiKey}`, ...init.headers } }),
        output: () => output,
      });
    };
    const collect = (data: Buffer) => (output += data.toString());
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    child.stdout!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`The gateway exited (${code}) before it listened:\n${output}`)));
  });
}

export function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

export interface WorkerHostProcess {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
}

/** A worker host as a real child process (`node dist/worker-host.mjs`); resolves once it takes chunks. */
export function spawnWorkerHost(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<WorkerHostProcess> {
  const child = spawn(process.execPath, [path.resolve('dist/worker-host.mjs'), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const collect = (data: Buffer) => {
      output += data.toString();
      if (/Orator worker host .* voices/.test(output)) resolve({ child, output: () => output });
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    child.on('exit', (code) => reject(new Error(`The worker host exited (${code}) before it started:\n${output}`)));
  });
}
