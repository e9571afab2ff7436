/**
 * The preload of the studio window: sandboxed, so CommonJS with `electron` as its only import
 * (esbuild bundles ./shell/bridge into it). Exposes named functions only.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { SettingsUpdate, SettingsView } from './contract/settings';
import type { LibraryVoice, VoiceLibraryList } from './contract/voice-library';
import { IPC, type DesktopConnection, type OratorBridge } from './shell/bridge';

// Synchronous once, at load: the studio reads the connection before its first render. Main
// answers null to a page that is not the studio; such a page gets no bridge at all.
const connection = ipcRenderer.sendSync(IPC.connection) as DesktopConnection | null;

if (connection) {
  const bridge = {
    gatewayUrl: connection.gatewayUrl,
    apiKey: connection.apiKey,
    appVersion: connection.appVersion,
    openDataFolder: () => ipcRenderer.invoke(IPC.openDataFolder) as Promise<void>,
    copyToClipboard: (text: string) => ipcRenderer.invoke(IPC.copyToClipboard, text) as Promise<void>,
    saveSettings: (update: SettingsUpdate) => ipcRenderer.invoke(IPC.saveSettings, update) as Promise<SettingsView>,
    regenerateApiKey: () => ipcRenderer.invoke(IPC.regenerateApiKey) as Promise<string>,
    installVoice: (id: string) => ipcRenderer.invoke(IPC.installVoice, id) as Promise<LibraryVoice>,
    removeVoice: (id: string) => ipcRenderer.invoke(IPC.removeVoice, id) as Promise<void>,
    refreshVoiceLibrary: () => ipcRenderer.invoke(IPC.refreshVoiceLibrary) as Promise<VoiceLibraryList>,
  } satisfies OratorBridge;
  contextBridge.exposeInMainWorld('orator', bridge);
}
