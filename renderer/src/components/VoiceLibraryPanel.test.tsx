// @vitest-environment happy-dom
/**
 * The voice library panel against a real gateway and a catalog server on loopback, the studio's
 * event stream running: an install is followed from its events (the bar moves with no polling),
 * and the list is read again only when it ends.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { ADMIN_TOKEN_FILE } from '../../../electron/storage/credentials';
import { expectSpeech } from '../../../electron/testing/audio';
import { PIPER_ID, pointAtCatalog, startCatalogServer, type CatalogServer } from '../../../electron/testing/catalog-server';
import { exited, spawnGateway, type GatewayProcess } from '../../../electron/testing/process';
import { useApp } from '../store';
import { startJobSync } from '../store/job-sync';
import { VoiceLibraryPanel } from './VoiceLibraryPanel';

const LIBRARY = '/api/v1/tts/voice-library';
/** How long to wait for what a request to the gateway brings (waitFor's own second is short on a busy machine). */
const ANSWERED = { timeout: 15_000 };
let server: CatalogServer;
let dataDir: string;
let gateway: GatewayProcess & { adminToken: string };
let stopSync = () => {};

beforeAll(async () => {
  server = await startCatalogServer();
  // its own process: in this one fetch is happy-dom's, which would hold the gateway's downloads to the page's origin
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-library-panel-'));
  const child = await spawnGateway(['--data-dir', dataDir]);
  gateway = { ...child, adminToken: (await readFile(path.join(dataDir, ADMIN_TOKEN_FILE), 'utf8')).trim() };
  // happy-dom's fetch keeps the same-origin rule: the page is the gateway's, as the web studio is
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${gateway.url}/`);
  expect((await pointAtCatalog(gateway, server.catalogUrl)).status).toBe(200);
}, 60_000);
afterAll(async () => {
  gateway.child.kill();
  await exited(gateway.child);
  await rm(dataDir, { recursive: true, force: true });
  await server.close();
});
afterEach(() => {
  stopSync();
  cleanup();
});

it(
  'shows an install from the event stream, reads the list again only at its end, tries the voice and removes it',
  { timeout: 120_000 },
  async () => {
    // the voice's .onnx.json comes 300 bytes every 150 ms: an install of a few seconds
    server.misbehave = { trickle: { suffix: '.onnx.json', everyMs: 150, bytes: 300 } };
    const listReads: string[] = [];
    let streamOpens = 0;
    const counting: typeof fetch = (input, init) => {
      const { pathname } = new URL(String(input), gateway.url);
      if (pathname === LIBRARY) listReads.push(new Date().toISOString());
      if (pathname === '/api/v1/tts/events') streamOpens++;
      return fetch(input, init);
    };
    await useApp.getState().connect({ baseUrl: '', apiKey: gateway.apiKey }, counting);
    stopSync = startJobSync(useApp);
    await waitFor(() => expect(useApp.getState().jobsSync).toBe('live'), { timeout: 15_000 });
    render(<VoiceLibraryPanel />);
    fireEvent.change(await screen.findByLabelText('Admin token'), { target: { value: gateway.adminToken } });
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    const row = () => document.querySelector<HTMLElement>(`li[data-voice="${PIPER_ID}"]`)!;
    await waitFor(() => expect(row()).toBeTruthy(), ANSWERED);
    // what the bar shows, as often as a person could see it change
    const shown: number[] = [];
    const watch = setInterval(() => {
      const bar = row().querySelector('progress');
      if (bar && shown.at(-1) !== bar.value) shown.push(bar.value);
    }, 20);
    fireEvent.click(within(row()).getByRole('button', { name: 'Install' }));
    fireEvent.click(within(row()).getByRole('button', { name: 'Accept and install' }));
    const bar = (await within(row()).findByRole('progressbar', {}, { timeout: 15_000 })) as HTMLProgressElement;
    expect(bar.max).toBe(sizeOfPiperVoice());
    await waitFor(() => expect(within(row()).getByRole('button', { name: 'Try it' })).toBeTruthy(), { timeout: 60_000 });
    clearInterval(watch);
    // where its hashes came from: the catalog pins the Piper voice's md5s
    expect(row().textContent).toContain('verified: hash pinned in the catalog');

    // the bar moved through several values on the way, each a later one
    const between = shown.filter((done) => done > 0 && done < sizeOfPiperVoice());
    expect(between.length, `the bar showed ${shown.join(', ')}`).toBeGreaterThanOrEqual(3);
    expect(between).toEqual([...between].sort((a, b) => a - b));
    // read when the panel opened, and once more when the install ended: never polled
    // (and once more each time the stream opened again, which a busy machine can make it do)
    expect(listReads).toHaveLength(2 + (streamOpens - 1));
    await waitFor(() => expect(useApp.getState().voices['sherpa-onnx']?.map((v) => v.id)).toContain(`sherpa-onnx:${PIPER_ID}`), ANSWERED);

    fireEvent.click(within(row()).getByRole('button', { name: 'Try it' }));
    await waitFor(() => expect(useApp.getState().current?.kind).toBe('audio'), { timeout: 30_000 });
    const current = useApp.getState().current;
    if (current?.kind !== 'audio') throw new Error('no sample played');
    expect(current.audio.voice).toBe(`sherpa-onnx:${PIPER_ID}`);
    expect(expectSpeech(Buffer.from(await current.audio.blob.arrayBuffer()))).toBeGreaterThan(0.5);

    fireEvent.click(within(row()).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(within(row()).getByRole('button', { name: 'Install' })).toBeTruthy(), { timeout: 15_000 });
    await waitFor(() => expect(useApp.getState().voices['sherpa-onnx'] ?? []).toEqual([]), ANSWERED);
    expect(listReads).toHaveLength(2 + (streamOpens - 1));
    server.misbehave = {};
  },
);

function sizeOfPiperVoice(): number {
  return [...server.files].filter(([name]) => name.startsWith('/piper/main/')).reduce((sum, [, bytes]) => sum + bytes.length, 0);
}
