/**
 * The preload bridge's IPC handlers, with a real gateway and the Electron double (the Electron
 * binary cannot run here; testing/electron-double.ts says what the double does).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LibraryVoice, SettingsView, VoiceLibraryList } from '../contract';
import { expectSpeech } from '../testing/audio';
import { PIPER_ID, startCatalogServer, type CatalogServer } from '../testing/catalog-server';
import { readSavedSettings } from '../settings/store';
import { IPC } from './bridge';
import { useDesktopLaunch } from './testing/launch';

const { launch, STUDIO } = useDesktopLaunch();

describe('preload bridge (IPC)', () => {
  it('hands the studio the gateway URL, key and version, and refuses other senders', async () => {
    const { sendSync, invoke, desktop, calls, userData } = await launch();
    expect(sendSync(IPC.connection, { url: STUDIO })).toEqual({
      gatewayUrl: desktop.gateway.url,
      apiKey: desktop.gateway.apiKey,
      appVersion: '0.1.0-test',
    });
    expect(sendSync(IPC.connection, { url: 'https://evil.example/' })).toBeNull();
    expect(sendSync(IPC.connection, { url: STUDIO, subframe: true })).toBeNull();

    await invoke(IPC.copyToClipboard, { url: STUDIO }, 'hello');
    expect(calls.clipboard).toEqual(['hello']);
    await expect(invoke(IPC.copyToClipboard, { url: STUDIO }, { not: 'text' })).rejects.toThrow(/expected a string/);
    await expect(invoke(IPC.copyToClipboard, { url: 'https://evil.example/' }, 'x')).rejects.toThrow(/refused/);

    await invoke(IPC.openDataFolder, { url: STUDIO });
    expect(calls.openedPaths).toEqual([userData]);
    await expect(invoke(IPC.openDataFolder, { url: 'file:///tmp/x.html' })).rejects.toThrow(/refused/);
  });
});

describe('settings window (IPC, native confirmation)', () => {
  it('saves no setting, a limit included, before the person agrees in a native dialog, as HTTP asks the admin token for each', async () => {
    const { invoke, calls, desktop, userData } = await launch();
    const { host: _host, ...settings } = desktop.gateway.settings.current();

    // saving what is already saved asks nothing
    await invoke(IPC.saveSettings, { url: STUDIO }, settings);
    expect(calls.questions).toEqual([]);

    // the port is set by ORATOR_PORT for this run: refused before anyone is asked
    await expect(invoke(IPC.saveSettings, { url: STUDIO }, { ...settings, port: 5799 })).rejects.toThrow(
      'Not saved: port is set by ORATOR_PORT for this run',
    );
    expect(calls.questions).toEqual([]);

    const changed = {
      ...settings,
      inline_threshold: 5,
      retention_hours: 1,
      close_to_tray: false,
      openai_voices: { alloy: 'espeak-ng:en-us' },
    };
    await expect(invoke(IPC.saveSettings, { url: STUDIO }, changed)).rejects.toThrow(/not confirmed/);
    expect(calls.questions[0]).toMatchObject({ message: 'Change these settings?', buttons: ['Save', 'Cancel'] });
    for (const line of [`inline_threshold: ${settings.inline_threshold} → 5`, 'retention_hours:', 'close_to_tray:', 'openai_voices:'])
      expect(calls.questions[0]!.detail).toContain(line);
    expect(desktop.gateway.settings.current().inline_threshold).toBe(settings.inline_threshold);
    expect(readSavedSettings(userData).retention_hours).not.toBe(1);

    calls.answers.push('Save');
    const limits = (await invoke(IPC.saveSettings, { url: STUDIO }, changed)) as SettingsView;
    expect(limits.settings).toMatchObject({ inline_threshold: 5, retention_hours: 1, close_to_tray: false });
    expect(limits.sources.port).toEqual({ source: 'env', set_by: 'ORATOR_PORT', editable: false });
  });

  it('saves a new engine program only after the person agrees to the strongest warning', async () => {
    const { invoke, calls, desktop, userData } = await launch();
    const { host: _host, ...settings } = desktop.gateway.settings.current();

    const withProgram = { ...settings, engine_executables: { 'espeak-ng-system': '/usr/bin/espeak-ng' } };
    await expect(invoke(IPC.saveSettings, { url: STUDIO }, withProgram)).rejects.toThrow(/not confirmed/);
    expect(calls.questions[0]).toMatchObject({ message: 'Let Orator run this?', buttons: ['Save', 'Cancel'] });
    expect(calls.questions[0]!.detail).toContain('Run /usr/bin/espeak-ng as the espeak-ng-system engine');
    expect(readSavedSettings(userData).engine_executables).toBeUndefined();

    calls.answers.push('Save');
    await invoke(IPC.saveSettings, { url: STUDIO }, withProgram);
    expect(readSavedSettings(userData).engine_executables).toEqual({ 'espeak-ng-system': '/usr/bin/espeak-ng' });

    await expect(invoke(IPC.saveSettings, { url: STUDIO }, { ...settings, port: 'x' })).rejects.toThrow(/port must be integer/);
    await expect(invoke(IPC.saveSettings, { url: 'https://evil.example/' }, settings)).rejects.toThrow(/refused/);
  });

  it('replaces the key only after the person agrees', async () => {
    const { invoke, calls, desktop } = await launch();
    const before = desktop.gateway.apiKey;
    await expect(invoke(IPC.regenerateApiKey, { url: STUDIO })).rejects.toThrow(/not replaced/);
    expect(desktop.gateway.apiKey).toBe(before);
    calls.answers.push('Replace key');
    const key = await invoke(IPC.regenerateApiKey, { url: STUDIO });
    expect(key).toBe(desktop.gateway.apiKey);
    expect(key).not.toBe(before);
    await expect(invoke(IPC.regenerateApiKey, { url: STUDIO, subframe: true })).rejects.toThrow(/refused/);
  });

  it('takes ORATOR_API_KEY out of the environment the processes it starts inherit', async () => {
    const { env, desktop } = await launch({ env: { ORATOR_API_KEY: 'a-key-from-the-environment' } });
    expect(desktop.gateway.apiKey).toBe('a-key-from-the-environment');
    expect(env.ORATOR_API_KEY).toBeUndefined();
  });
});

describe('voice library (IPC, native confirmation)', { timeout: 300_000 }, () => {
  let server: CatalogServer;
  beforeAll(async () => {
    server = await startCatalogServer();
  });
  afterAll(() => server.close());

  it('installs a voice only after the person agrees to it and its licence, and removes it the same way', async () => {
    const { invoke, calls, desktop, api } = await launch();
    const { host: _host, ...settings } = desktop.gateway.settings.current();
    const withCatalog = { ...settings, voice_catalog_url: server.catalogUrl };
    await expect(invoke(IPC.saveSettings, { url: STUDIO }, withCatalog)).rejects.toThrow(/not confirmed/);
    expect(calls.questions.at(-1)!.detail).toContain(`Offer the voices of the catalog at ${server.catalogUrl} for download`);
    calls.answers.push('Save');
    await invoke(IPC.saveSettings, { url: STUDIO }, withCatalog);
    const list = (await invoke(IPC.refreshVoiceLibrary, { url: STUDIO })) as VoiceLibraryList;
    expect(list.catalog.url).toBe(server.catalogUrl);

    await expect(invoke(IPC.installVoice, { url: STUDIO }, PIPER_ID)).rejects.toThrow(/not confirmed/);
    const asked = calls.questions.at(-1)!;
    expect(asked).toMatchObject({ message: expect.stringMatching(/^Install /), buttons: ['Install', 'Cancel'] });
    expect(asked.detail).toContain(server.catalogUrl);
    expect(asked.detail).toMatch(/licence \(unknown, .*MODEL_CARD\) may limit what the audio/);
    expect(desktop.gateway.voiceLibrary.get(PIPER_ID).state).toBe('available');

    calls.answers.push('Install'); // the licence is unknown: agreeing here accepts it
    expect(((await invoke(IPC.installVoice, { url: STUDIO }, PIPER_ID)) as LibraryVoice).state).toMatch(/queued|installing/);
    // each change of an install is an event of the library
    const library = desktop.gateway.voiceLibrary;
    const installed = await new Promise<LibraryVoice>((resolve) => {
      const check = () => {
        const voice = library.get(PIPER_ID);
        if (voice.state === 'queued' || voice.state === 'installing') return;
        library.off('voice', check);
        resolve(voice);
      };
      library.on('voice', check);
      check();
    });
    expect(installed).toMatchObject({ state: 'installed', voice_id: expect.any(String) });
    const speech = await api('/api/v1/tts/synthesize', {
      method: 'POST',
      body: JSON.stringify({ text: 'Hello there.', voice: installed.voice_id }),
    });
    expect(speech.status).toBe(200);
    expectSpeech(Buffer.from(await speech.arrayBuffer()));

    await expect(invoke(IPC.removeVoice, { url: STUDIO }, PIPER_ID)).rejects.toThrow(/not confirmed/);
    expect(calls.questions.at(-1)).toMatchObject({ buttons: ['Remove', 'Cancel'] });
    expect(desktop.gateway.voiceLibrary.get(PIPER_ID).state).toBe('installed');
    calls.answers.push('Remove');
    await invoke(IPC.removeVoice, { url: STUDIO }, PIPER_ID);
    expect(desktop.gateway.voiceLibrary.get(PIPER_ID).state).toBe('available');

    await expect(invoke(IPC.installVoice, { url: STUDIO }, '../etc')).rejects.toThrow(/expected a voice library id/);
    await expect(invoke(IPC.installVoice, { url: STUDIO }, 42)).rejects.toThrow(/expected a voice library id/);
    await expect(invoke(IPC.installVoice, { url: 'https://evil.example/' }, PIPER_ID)).rejects.toThrow(/refused/);
    await expect(invoke(IPC.removeVoice, { url: STUDIO, subframe: true }, PIPER_ID)).rejects.toThrow(/refused/);
    await expect(invoke(IPC.refreshVoiceLibrary, { url: 'https://evil.example/' })).rejects.toThrow(/refused/);
  });
});
