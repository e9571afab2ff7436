/** `orator voices available | install <id> | remove <id>`: the voice library from the command line (docs/voices.md). */
import { API, ApiError, type LibraryVoice } from '../contract';
import type { Gateway } from './connection';
import { CommandFailure } from './failures';
import { printJson, printTable } from './table';

const POLL_MS = 250;
const MB = 1024 * 1024;
const megabytes = (bytes: number | null) => (bytes === null ? '?' : (bytes / MB).toFixed(1));

export async function listAvailable(gateway: Gateway, lang: string | undefined, json: boolean): Promise<void> {
  const { voices } = await gateway.client.call(API.listLibraryVoices, { query: lang === undefined ? {} : { language: lang } });
  const list = voices.filter((v) => v.engine !== 'component');
  if (json) return printJson(list);
  if (list.length === 0) return void process.stderr.write('No voice of the library matches.\n');
  printTable(
    ['ID', 'LANGUAGE', 'QUALITY', 'MB', 'LICENCE', 'STATE', 'NAME'],
    list.map((v) => [
      v.id,
      v.language,
      v.quality,
      megabytes(v.size_bytes),
      v.license.id,
      v.verification === 'none' ? 'not pinned' : v.state,
      v.name,
    ]),
  );
}

/** Installs and waits, drawing the bytes on standard error; exit 1 when the install fails. */
export async function install(gateway: Gateway, id: string, acceptLicense: boolean, showProgress: boolean): Promise<void> {
  let voice: LibraryVoice;
  try {
    voice = await gateway.client.call(API.installVoice, {
      params: { id },
      body: acceptLicense ? { accept_license: true } : {},
      credential: gateway.adminToken(),
    });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'license_not_accepted') {
      throw new CommandFailure(`${error.message.replace(/Read it, then .*$/, 'Read it, then run again with --accept-license.')}`);
    }
    throw error;
  }
  while (voice.state === 'queued' || voice.state === 'installing') {
    if (showProgress && voice.bytes_total) {
      const percent = Math.floor((100 * (voice.bytes_done ?? 0)) / voice.bytes_total);
      process.stderr.write(`\r${id} ${voice.state} ${megabytes(voice.bytes_done ?? 0)}/${megabytes(voice.bytes_total)} MB ${percent}%   `);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    voice = await gateway.client.call(API.getLibraryVoice, { params: { id } });
  }
  if (showProgress) process.stderr.write('\n');
  if (voice.state !== 'installed') throw new CommandFailure(`${id} was not installed: ${voice.error ?? voice.state}`);
  process.stdout.write(`${id} installed${voice.voice_id ? `: speak with -v ${voice.voice_id}` : ''}\n`);
}

export async function remove(gateway: Gateway, id: string): Promise<void> {
  await gateway.client.call(API.removeVoice, { params: { id }, credential: gateway.adminToken() });
  process.stdout.write(`${id} removed\n`);
}
