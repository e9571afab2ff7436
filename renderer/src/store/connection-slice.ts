import { isUnauthorized, OratorClient, type Connection } from '../api/client';
import { forgetKey, saveKey } from '../api/connection';
import type { SliceCreator } from './types';

/** "needed": no key yet; "rejected": the gateway refused the key we had. */
export type AuthState = 'needed' | 'checking' | 'rejected' | 'ok';

export interface ConnectionSlice {
  client: OratorClient | null;
  auth: AuthState;
  connect(connection: Connection | null, fetchImpl?: typeof fetch): Promise<void>;
  submitKey(key: string): Promise<void>;
  /** Every slice passes errors here first: a 401 anywhere sends the user back to the key prompt. */
  noteAuthError(error: unknown): boolean;
}

export const createConnectionSlice: SliceCreator<ConnectionSlice> = (set, get) => ({
  client: null,
  auth: 'needed',

  async connect(connection, fetchImpl) {
    if (!connection) {
      set({ client: null, auth: 'needed' });
      return;
    }
    set({ client: new OratorClient(connection, fetchImpl), auth: 'checking' });
    await get().loadEngines();
    if (get().auth !== 'checking') return;
    set({ auth: 'ok' });
    void get().loadSettings();
  },

  async submitKey(key) {
    await get().connect(saveKey(key.trim()));
  },

  noteAuthError(error) {
    if (!isUnauthorized(error)) return false;
    forgetKey();
    set({ auth: 'rejected' });
    return true;
  },
});
