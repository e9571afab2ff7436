// @vitest-environment happy-dom
/**
 * The settings panel against a real gateway (engines, database, settings.json), in happy-dom
 * placed at the gateway's origin as the headless studio is.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { configFromArgs } from '../../../electron/gateway/config';
import { startGateway, type Gateway } from '../../../electron/gateway/start';
import { readSavedSettings } from '../../../electron/settings/store';
import { OratorClient } from '../api/client';
import { useApp } from '../store';
import { SettingsPanel } from './SettingsPanel';

let gateway: Gateway;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-panel-'));
  gateway = await startGateway({ ...configFromArgs([], {}), port: 0, dataDir }, { workerFile: path.resolve('dist/synth-worker.mjs') });
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${gateway.url}/`);
});

afterAll(async () => {
  await gateway.close();
  await rm(dataDir, { recursive: true, force: true });
});

afterEach(cleanup);

/** The panel as the web studio shows it: read-only until the admin token is pasted in. */
async function renderPanel() {
  useApp.setState({ client: new OratorClient({ baseUrl: '', apiKey: gateway.apiKey }) });
  render(<SettingsPanel />);
  fireEvent.change(await screen.findByLabelText('Admin token'), {
    target: { value: (await readFile(gateway.adminTokenFile, 'utf8')).trim() },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
  return screen.findByRole('button', { name: 'Save settings' });
}

const field = (label: RegExp) => screen.getByLabelText(label) as HTMLInputElement;

it('saves settings: live ones apply at once, the rest are marked for a restart', async () => {
  const save = await renderPanel();
  expect(field(/^Inline threshold/).value).toBe('1000');
  fireEvent.change(field(/^Inline threshold/), { target: { value: '5' } });
  fireEvent.change(field(/^Port/), { target: { value: '5799' } });
  fireEvent.click(save);
  expect((await screen.findByRole('status')).textContent).toBe('Saved. Restart Orator to apply: port.');
  expect(screen.getByText('restart')).toBeTruthy();
  expect(readSavedSettings(dataDir)).toMatchObject({ inline_threshold: 5, port: 5799 });
  const synth = await fetch(`${gateway.url}/api/v1/tts/synthesize`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'More than five characters.' }),
  });
  expect(synth.status).toBe(202);
});

it('maps an OpenAI voice name to a local voice, which /v1 speaks with at once', async () => {
  const save = await renderPanel();
  expect(screen.getByText('espeak-ng:en-us')).toBeTruthy(); // alloy's default is listed
  fireEvent.change(field(/^OpenAI voice name/), { target: { value: 'narrator' } });
  fireEvent.change(field(/^Orator voice/), { target: { value: 'flite:rms' } });
  fireEvent.click(
    field(/^OpenAI voice name/)
      .closest('.settings-row')!
      .querySelector('button')!,
  ); // its own Add
  fireEvent.click(save);
  expect((await screen.findByRole('status')).textContent).toMatch(/^Saved/);
  expect(readSavedSettings(dataDir).openai_voices).toMatchObject({ narrator: 'flite:rms', alloy: 'espeak-ng:en-us' });
  const speech = await fetch(`${gateway.url}/v1/audio/speech`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'tts-1', voice: 'narrator', input: 'Hello.', response_format: 'wav' }),
  });
  expect([speech.status, speech.headers.get('x-orator-voice')]).toEqual([200, 'flite:rms']);
});

it('is read-only with the API key alone: nothing to save, no key to regenerate, the bind address never editable', async () => {
  useApp.setState({ client: new OratorClient({ baseUrl: '', apiKey: gateway.apiKey }) });
  render(<SettingsPanel />);
  const save = (await screen.findByRole('button', { name: 'Save settings' })) as HTMLButtonElement;
  expect(save.disabled).toBe(true);
  expect(field(/^Inline threshold/).closest('fieldset')!.disabled).toBe(true);
  expect((screen.getByRole('button', { name: 'Regenerate…' }) as HTMLButtonElement).disabled).toBe(true);
  expect(field(/^Bind address/).readOnly).toBe(true);
});

it("shows the gateway's refusal in place", async () => {
  const save = await renderPanel();
  expect(field(/^Bind address/).readOnly).toBe(true);
  fireEvent.change(field(/^Maximum text length/), { target: { value: '0' } });
  fireEvent.click(save);
  await waitFor(() => expect(screen.getAllByRole('alert').some((a) => a.textContent?.includes('max_text_length'))).toBe(true));
});

it('regenerates the API key and carries on with the new one', async () => {
  await renderPanel();
  const oldKey = gateway.apiKey;
  fireEvent.click(screen.getByRole('button', { name: 'Show' }));
  expect(field(/^API key/).value).toBe(oldKey);
  fireEvent.click(screen.getByRole('button', { name: 'Regenerate…' }));
  fireEvent.click(screen.getByRole('button', { name: 'Regenerate key' }));
  expect((await screen.findByText('A new key is in use. Give it to your tools.')).textContent).toBeTruthy();
  expect(gateway.apiKey).not.toBe(oldKey);
  expect(useApp.getState().client?.connection.apiKey).toBe(gateway.apiKey);
  await waitFor(() => expect(field(/^API key/).value).toBe(gateway.apiKey));
});
