/**
 * Finds the running gateway of a data folder: its URL from `gateway-url` (written at each start),
 * its key from `api-key` (or the key the gateway was given instead), and checks that whoever
 * answers at the URL holds that key before sending it (whoami's nonce proof, docs/api.md).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { WHOAMI_PATH, withoutTrailingSlashes } from '../contract';
import { OratorClient } from '../client';
import { apiKeyOverride, readSecretFile } from '../gateway/api-key';
import { keyProof } from '../gateway/identity';
import { GATEWAY_URL_FILE, readGatewayUrl, readKeySource, type KeySource } from '../gateway/url-file';
import { ADMIN_TOKEN_FILE, API_KEY_FILE } from '../storage/credentials';
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
  /** The admin token, read from the data folder when a command needs it (installing voices). */
  adminToken(): string;
}

/**
 * Flags win over ORATOR_URL, ORATOR_API_KEY_FILE, ORATOR_API_KEY and ORATOR_DATA_DIR, which win
 * over the data folder's files: the key the running gateway records it uses (a key file it was
 * given), else `api-key`.
 */
export async function connect(options: ConnectionOptions, env: NodeJS.ProcessEnv = process.env): Promise<Gateway> {
  const dataDir = path.resolve(options.dataDir ?? env.ORATOR_DATA_DIR ?? defaultDataDir(process.platform, env));
  const url = withoutTrailingSlashes(options.url ?? env.ORATOR_URL ?? recordedUrl(dataDir));
  const gatewaySource = (options.url ?? env.ORATOR_URL) ? undefined : readKeySource(dataDir);
  const { key: apiKey, source } = keyOf(dataDir, options.apiKeyFile, env, gatewaySource);
  await checkProof(url, apiKey, source, gatewaySource);
  const fetchWithKey = (route: string, init: RequestInit = {}) =>
    fetch(url + route, { ...init, headers: { authorization: `Bearer ${apiKey}`, ...(init.headers as Record<string, string>) } });
  return { url, apiKey, client: new OratorClient({ baseUrl: url, apiKey }), fetch: fetchWithKey, adminToken: () => adminTokenOf(dataDir) };
}

function adminTokenOf(dataDir: string): string {
  const file = path.join(dataDir, ADMIN_TOKEN_FILE);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw new CommandFailure(
      `This needs the admin token, and ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): ` +
        'run it as the user who runs Orator, or name the data folder with --data-dir.',
    );
  }
}

function recordedUrl(dataDir: string): string {
  const url = readGatewayUrl(dataDir);
  if (url) return url;
  const where = existsSync(dataDir) ? `${path.join(dataDir, GATEWAY_URL_FILE)} is missing` : `the data folder ${dataDir} does not exist`;
  throw new CommandFailure(
    `No running Orator gateway found: ${where}. Start Orator (the app, or npm run serve), or name its folder with --data-dir or its address with --url.`,
  );
}

function keyOf(
  dataDir: string,
  apiKeyFile: string | undefined,
  env: NodeJS.ProcessEnv,
  gateway: KeySource | undefined,
): { key: string; source: string } {
  let override;
  try {
    override = apiKeyOverride({ file: apiKeyFile }, env);
  } catch (error) {
    throw new CommandFailure((error as Error).message);
  }
  if (override.apiKey !== undefined) return { key: override.apiKey, source: override.apiKeySource! };
  // the key file the gateway was started with, when this user may read it
  if (gateway?.file !== undefined) {
    try {
      return { key: readSecretFile(gateway.file), source: gateway.file };
    } catch {
      // unreadable here: the stored key is tried, and the failure names the gateway's source
    }
  }
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
async function checkProof(url: string, apiKey: string, source: string, gateway: KeySource | undefined): Promise<void> {
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
  if (proven) return;
  const giveIt = 'give the same key with --api-key-file <file>, ORATOR_API_KEY_FILE or ORATOR_API_KEY';
  if (gateway !== undefined && source !== gateway.source && source !== gateway.file) {
    throw new CommandFailure(
      `The server at ${url} does not hold the API key from ${source}: it was started with its key from ${gateway.source}${gateway.file ? ', which cannot be read here' : ''}; ${giveIt}.`,
    );
  }
  throw new CommandFailure(
    `The server at ${url} does not hold the API key from ${source}, or does not answer for this port: it is another data folder's gateway, one started with another key (then ${giveIt}), or a program passing questions on to a gateway elsewhere.`,
  );
}

function proofMatches(proof: string, expected: string): boolean {
  return proof.length === expected.length && timingSafeEqual(Buffer.from(proof), Buffer.from(expected));
}
