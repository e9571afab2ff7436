import { OratorClient, type Connection } from '../api/client';
import { forgetKey, saveKey } from '../api/connection';
import type { SliceCreator } from './types';

/** "needed": no key yet; "rejected": the gateway refused the key we had. */
export type AuthState = 'needed' | 'checking' | 'rejected' | 'ok';

export interface ConnectionSlice {
  client: OratorClient | null;
  auth: AuthState;
  connect(connection: Connection | null, fetchImpl?: typeof fetch): Promise<void>;
  submitKey(key: string): Promise<void>;
}

export const createConnectionSlice: SliceCreator<ConnectionSlice> = (set, get) => ({
  client: null,
  auth: 'needed',

  async connect(connection, fetchImpl) {
    if (!connection) {
      set({ client: null, auth: 'needed' });
      return;
    }
    // a 401 to any request of the current client sends the user back to the key prompt; a late
    // refusal of an older client (an old key) changes nothing
    const onUnauthorized = (refused: OratorClient) => {
      if (get().client !== refused) return;
      forgetKey();
      set({ auth: 'rejected' });
    };
    set({ client: new OratorClient(connection, { fetch: fetchImpl, onUnauthorized }), auth: 'checking' });
    await get().loadEngines();
    if (get().auth !== 'checking') return;
    set({ auth: 'ok' });
    void get().loadSettings();
  },

  async submitKey(key) {
    await get().connect(saveKey(key.trim()));
  },
});
