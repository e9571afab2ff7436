/** Test support: the headless gateway as a real child process (`node dist/serve.mjs`). */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface GatewayProcess {
  child: ChildProcess;
  url: string;
  apiKey: string;
  api(route: string, init?: RequestInit): Promise<Response>;
}

const LINE = /Orator gateway at (http:\/\/[^/\s]+)\/.*#key=([A-Za-z0-9_-]+)/;

/** `launcher`: a command that runs the gateway, e.g. in another mount namespace (see small-disk.ts). */
export function spawnGateway(args: string[], env: NodeJS.ProcessEnv = process.env, launcher: string[] = []): Promise<GatewayProcess> {
  const command = [...launcher, process.execPath, path.resolve('dist/serve.mjs'), '--port', '0', ...args];
  const child = spawn(command[0]!, command.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (data: Buffer) => {
      output += data.toString();
      const match = LINE.exec(output);
      if (!match) return;
      child.stdout!.off('data', onData);
      const [, url, apiKey] = match as unknown as [string, string, string];
      resolve({
        child,
        url,
        apiKey,
        api: (route, init = {}) => fetch(url + route, { ...init, headers: { authorization: `Bearer ${apiKey}`, ...init.headers } }),
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (data: Buffer) => (output += data.toString()));
    child.on('exit', (code) => reject(new Error(`The gateway exited (${code}) before it listened:\n${output}`)));
  });
}

export function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}
