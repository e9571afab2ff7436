import type { IpcMain, IpcMainEvent, IpcMainInvokeEvent, WebFrameMain } from 'electron';
import { Value } from 'typebox/value';
import { SettingsUpdate, type SettingsView } from '../contract/settings';
import { isCatalogId, type LibraryVoice, type VoiceLibraryList } from '../contract/voice-library';
import { isAppUrl } from './app-protocol';
import { IPC, MAX_CLIPBOARD_CHARS, type DesktopConnection } from './bridge';

export interface IpcHandlers {
  connection(): DesktopConnection;
  openDataFolder(): Promise<void>;
  copyToClipboard(text: string): void;
  saveSettings(update: SettingsUpdate): Promise<SettingsView>;
  regenerateApiKey(): Promise<string>;
  installVoice(id: string): Promise<LibraryVoice>;
  removeVoice(id: string): Promise<void>;
  refreshVoiceLibrary(): Promise<VoiceLibraryList>;
}

/** Only the studio's own top-level page may call the bridge: not a frame, not another origin. */
export function isTrustedSender(frame: WebFrameMain | null): boolean {
  return frame !== null && frame.parent === null && isAppUrl(frame.url);
}

function refuse(channel: string): Error {
  return new Error(`${channel}: refused, the sender is not the Orator studio`);
}

/** One handler per bridge function; each checks its sender and its arguments. */
export function registerIpc(ipcMain: IpcMain, handlers: IpcHandlers): void {
  ipcMain.on(IPC.connection, (event: IpcMainEvent) => {
    // sendSync needs a returnValue; an untrusted page gets null and the studio asks for the key.
    event.returnValue = isTrustedSender(event.senderFrame) ? handlers.connection() : null;
  });

  ipcMain.handle(IPC.openDataFolder, async (event: IpcMainInvokeEvent) => {
    if (!isTrustedSender(event.senderFrame)) throw refuse(IPC.openDataFolder);
    await handlers.openDataFolder();
  });

  ipcMain.handle(IPC.copyToClipboard, (event: IpcMainInvokeEvent, text: unknown) => {
    if (!isTrustedSender(event.senderFrame)) throw refuse(IPC.copyToClipboard);
    if (typeof text !== 'string' || text.length > MAX_CLIPBOARD_CHARS) {
      throw new Error(`${IPC.copyToClipboard}: expected a string of at most ${MAX_CLIPBOARD_CHARS} characters`);
    }
    handlers.copyToClipboard(text);
  });

  ipcMain.handle(IPC.saveSettings, async (event: IpcMainInvokeEvent, update: unknown) => {
    if (!isTrustedSender(event.senderFrame)) throw refuse(IPC.saveSettings);
    const problem = Value.Errors(SettingsUpdate, update)[0];
    if (problem) throw new Error(`${IPC.saveSettings}: ${problem.instancePath || 'settings'} ${problem.message}`);
    return handlers.saveSettings(update as SettingsUpdate);
  });

  ipcMain.handle(IPC.regenerateApiKey, async (event: IpcMainInvokeEvent) => {
    if (!isTrustedSender(event.senderFrame)) throw refuse(IPC.regenerateApiKey);
    return handlers.regenerateApiKey();
  });

  for (const channel of [IPC.installVoice, IPC.removeVoice] as const) {
    ipcMain.handle(channel, async (event: IpcMainInvokeEvent, id: unknown) => {
      if (!isTrustedSender(event.senderFrame)) throw refuse(channel);
      if (typeof id !== 'string' || !isCatalogId(id)) throw new Error(`${channel}: expected a voice library id`);
      return channel === IPC.installVoice ? handlers.installVoice(id) : handlers.removeVoice(id);
    });
  }

  ipcMain.handle(IPC.refreshVoiceLibrary, async (event: IpcMainInvokeEvent) => {
    if (!isTrustedSender(event.senderFrame)) throw refuse(IPC.refreshVoiceLibrary);
    return handlers.refreshVoiceLibrary();
  });
}
