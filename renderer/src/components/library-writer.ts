import { API } from '../api/contract';
import type { OratorBridge } from '../../../electron/shell/bridge';
import type { OratorClient } from '../api/client';

/** What changes the voice library: install (the licence accepted where asked), remove or cancel, and refresh the catalog. */
export interface LibraryWriter {
  install(id: string, acceptLicense: boolean): Promise<unknown>;
  remove(id: string): Promise<void>;
  refresh(): Promise<unknown>;
}

/**
 * The desktop app's main process (which asks the person in a native dialog, the licence named in
 * it), else the gateway with the admin token pasted in; null (read-only) without either.
 */
export function libraryWriter(client: OratorClient, bridge: OratorBridge | null, adminToken: string | null): LibraryWriter | null {
  if (bridge?.installVoice) {
    return {
      install: (id) => bridge.installVoice(id),
      remove: (id) => bridge.removeVoice(id),
      refresh: () => bridge.refreshVoiceLibrary(),
    };
  }
  if (!adminToken) return null;
  return {
    install: (id, acceptLicense) =>
      client.call(API.installVoice, { params: { id }, body: acceptLicense ? { accept_license: true } : {}, credential: adminToken }),
    remove: async (id) => {
      await client.call(API.removeVoice, { params: { id }, credential: adminToken });
    },
    refresh: () => client.call(API.refreshVoiceCatalog, { credential: adminToken }),
  };
}
