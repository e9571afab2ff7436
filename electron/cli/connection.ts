/**
 * Finds the running gateway of a data folder: its URL from `gateway-url` (written at each start),
 * its key from `api-key` (or the key the gateway was given instead), and checks that whoever
 * answers at the URL holds that key before sending it (whoami's nonce proof, docs/api.md).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { WHOAMI_PATH } from '../contract';
import { OratorClient } from '../../renderer/src/api/client';
import { apiKeyOverride } from '../gateway/api-key';
import { keyProof } from '../gateway/identity';
import { GATEWAY_URL_FILE, readGatewayUrl } from '../gateway/url-file';
import { API_KEY_FILE } from '../storage/credentials';
import { defaultDataDir } from '../storage/data-dir';
import { CommandFailure } from './failures';

export interface ConnectionOptions {
  dataDir?: string | undefined;
  url?: string | undefined;
  apiKeyFile?: string | undefined;
}

export interface Gateway {
  url: string;
  apiKey: string;
  client: OratorClient;
  /** fetch() against the gateway with the key. */
  fetch(route: string, init?: RequestInit): Promise<Response>;
}

/** Flags win over ORATOR_URL, ORATOR_API_KEY_FILE, ORATOR_API_KEY and ORATOR_DATA_DIR, which win over the data folder's files. */
export async function connect(options: ConnectionOptions, env: NodeJS.ProcessEnv = process.env): Promise<Gateway> {
  const dataDir = path.resolve(options.dataDir ?? env.ORATOR_DATA_DIR ?? defaultDataDir(process.platform, env));
  const url = (options.url ?? env.ORATOR_URL ?? recordedUrl(dataDir)).replace(/\/+$/, '');
  const { key: apiKey, source } = keyOf(dataDir, options.apiKeyFile, env);
  await checkProof(url, apiKey, source);
  const fetchWithKey = (route: string, init: RequestInit = {}) =>
    fetch(url + route, { ...init, headers: { authorization: `Bearer ${apiKey}`, ...(init.headers as Record<string, string>) } });
  return { url, apiKey, client: new OratorClient({ baseUrl: url, apiKey }), fetch: fetchWithKey };
}

function recordedUrl(dataDir: string): string {
  const url = readGatewayUrl(dataDir);
  if (url) return url;
  const where = existsSync(dataDir) ? `${path.join(dataDir, GATEWAY_URL_FILE)} is missing` : `the data folder ${dataDir} does not exist`;
  throw new CommandFailure(
    `No running Orator gateway found: ${where}. Start Orator (the app, or npm run serve), or name its folder with --data-dir or its address with --url.`,
  );
}

function keyOf(dataDir: string, apiKeyFile: string | undefined, env: NodeJS.ProcessEnv): { key: string; source: string } {
  let override;
  try {
    override = apiKeyOverride({ file: apiKeyFile }, env);
  } catch (error) {
    throw new CommandFailure((error as Error).message);
  }
  if (override.apiKey !== undefined) return { key: override.apiKey, source: override.apiKeySource! };
  const file = path.join(dataDir, API_KEY_FILE);
  try {
    return { key: readFileSync(file, 'utf8').trim(), source: file };
  } catch (error) {
    throw new CommandFailure(
      `Cannot read the API key from ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
    );
  }
}

/**
 * The key goes only to a server that proves it holds it, for the port this URL names: a program
 * squatting the port learns nothing, and one on another port relaying to a running gateway gets a
 * proof for the gateway's port, which does not pass.
 */
async function checkProof(url: string, apiKey: string, source: string): Promise<void> {
  const nonce = randomBytes(24).toString('base64url');
  let answer: { proof?: unknown; instance?: unknown };
  try {
    const response = await fetch(`${url}${WHOAMI_PATH}?nonce=${nonce}`);
    answer = (await response.json()) as typeof answer;
  } catch {
    throw new CommandFailure(`Cannot reach the Orator gateway at ${url}. Is Orator running?`);
  }
  const { proof, instance } = answer;
  const address = new URL(url);
  const port = Number(address.port || (address.protocol === 'https:' ? 443 : 80));
  const proven =
    typeof proof === 'string' && typeof instance === 'string' && proofMatches(proof, keyProof(apiKey, { instance, port, nonce }));
  if (!proven) {
    throw new CommandFailure(
      `The server at ${url} does not hold the API key from ${source}, or does not answer for this port: it is another data folder's gateway, one started with another key (then give the same with --api-key-file or ORATOR_API_KEY_FILE), or a program passing questions on to a gateway elsewhere.`,
    );
  }
}

function proofMatches(proof: string, expected: string): boolean {
  return proof.length === expected.length && timingSafeEqual(Buffer.from(proof), Buffer.from(expected));
}
