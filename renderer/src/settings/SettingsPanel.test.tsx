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
  // retention set by a flag, as `npm run serve -- --retention-hours 48` sets it: locked in the panel
  gateway = await startGateway(
    { ...configFromArgs(['--retention-hours', '48'], {}), port: 0, dataDir },
    { workerFile: path.resolve('dist/synth-worker.mjs') },
  );
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
  // not the default (one per core), so it waits for a restart on any machine
  const workers = field(/^Worker threads/).value === '1' ? 2 : 1;
  fireEvent.change(field(/^Worker threads/), { target: { value: String(workers) } });
  fireEvent.click(save);
  expect((await screen.findByRole('status')).textContent).toBe('Saved. Restart Orator to apply: workers.');
  expect(screen.getByText('restart')).toBeTruthy();
  expect(readSavedSettings(dataDir)).toEqual(expect.objectContaining({ inline_threshold: 5, workers }));
  expect(readSavedSettings(dataDir).retention_hours).toBeUndefined();
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

it('locks what a flag set for this run: the field is disabled and says which flag', async () => {
  await renderPanel();
  const retention = field(/^Keep job audio/);
  expect(retention.disabled).toBe(true);
  expect(retention.value).toBe('48');
  const note = document.getElementById(retention.getAttribute('aria-describedby')!);
  expect(note?.textContent).toBe('Set by --retention-hours, cannot be changed here.');
  // the test gateway's port 0 is given as --port would give it
  expect(field(/^Port/).disabled).toBe(true);
  expect(screen.getByText('Set by --port, cannot be changed here.')).toBe(
    document.getElementById(field(/^Port/).getAttribute('aria-describedby')!),
  );
  // the rest stays editable, and has no such note
  expect(field(/^Inline threshold/).disabled).toBe(false);
  expect(field(/^Inline threshold/).getAttribute('aria-describedby')).toBeNull();
  expect(screen.getAllByText(/cannot be changed here/)).toHaveLength(2);
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
