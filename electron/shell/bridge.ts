/**
 * The preload's API as the studio sees it (`window.orator` in the desktop app; absent in a browser).
 * Shared by electron/preload.cts, which must satisfy it, by the main process's IPC handlers and by
 * the renderer. Imports only contract types, so every layer may import it.
 */
import type { SettingsUpdate, SettingsView } from '../contract/settings';
import type { LibraryVoice, VoiceLibraryList } from '../contract/voice-library';

/** IPC channels: one named channel per bridge function, never a generic invoke. */
export const IPC = {
  connection: 'orator:connection',
  openDataFolder: 'orator:open-data-folder',
  copyToClipboard: 'orator:copy-to-clipboard',
  saveSettings: 'orator:save-settings',
  regenerateApiKey: 'orator:regenerate-api-key',
  installVoice: 'orator:install-voice',
  removeVoice: 'orator:remove-voice',
  refreshVoiceLibrary: 'orator:refresh-voice-library',
} as const;

/** Handed over once when the page loads; a reload fetches it anew (after a key regeneration, say). */
export interface DesktopConnection {
  /** Origin of the gateway, e.g. "http://127.0.0.1:5700". */
  gatewayUrl: string;
  apiKey: string;
  appVersion: string;
}

export interface OratorBridge extends Readonly<DesktopConnection> {
  /** Opens the data dir (database, audio, settings, key) in the system file manager. */
  openDataFolder(): Promise<void>;
  /** The page cannot use navigator.clipboard: every permission is denied to it. */
  copyToClipboard(text: string): Promise<void>;
  /**
   * Settings and the key are changed by the main process, which asks the person in a native dialog
   * first when a change lets Orator run a program or load models: the page holds no admin token, so
   * script injected into it cannot change what runs. Rejects when the person declines.
   */
  saveSettings(update: SettingsUpdate): Promise<SettingsView>;
  regenerateApiKey(): Promise<string>;
  /**
   * The voice library, changed by the main process for the same reason: an install is confirmed in a
   * native dialog that names the voice, its size, where it comes from and its licence (agreeing
   * accepts the licence). Rejects when the person declines.
   */
  installVoice(id: string): Promise<LibraryVoice>;
  /** Cancels an install, or removes an installed voice once the person agrees. */
  removeVoice(id: string): Promise<void>;
  /** Reads the catalog again from voice_catalog_url (whose change was confirmed when it was saved). */
  refreshVoiceLibrary(): Promise<VoiceLibraryList>;
}

/** Longest text copyToClipboard accepts; a whole chapter fits. */
export const MAX_CLIPBOARD_CHARS = 10_000_000;
