import type { DesktopConnection } from '../../../electron/shell/bridge';
import { withoutTrailingSlashes } from './contract';
import type { Connection } from './client';

declare global {
  interface Window {
    /** Electron's preload bridge (electron/shell/bridge.ts); absent in a browser. Only what the studio reads. */
    orator?: Pick<DesktopConnection, 'gatewayUrl' | 'apiKey'>;
  }
}

export const KEY_STORAGE = 'orator.apiKey';

/**
 * Finds the gateway and its key: Electron's preload first, then a `#key=` fragment (which is
 * stored for this session only and removed from the address bar, so it never lands in history,
 * bookmarks or screenshots), then the session store. Null means: ask the user.
 */
export function resolveConnection(win: Window = window): Connection | null {
  const bridge = win.orator;
  if (bridge?.gatewayUrl && bridge.apiKey) return { baseUrl: withoutTrailingSlashes(bridge.gatewayUrl), apiKey: bridge.apiKey };

  const fromFragment = takeKeyFromFragment(win);
  if (fromFragment) win.sessionStorage.setItem(KEY_STORAGE, fromFragment);
  const key = fromFragment ?? win.sessionStorage.getItem(KEY_STORAGE);
  return key ? { baseUrl: '', apiKey: key } : null;
}

/** Reads `key` from the URL fragment and rewrites the address without it. */
function takeKeyFromFragment(win: Window): string | null {
  const hash = win.location.hash.replace(/^#/, '');
  if (!hash) return null;
  const params = new URLSearchParams(hash);
  const key = params.get('key')?.trim();
  if (!key) return null;
  params.delete('key');
  const rest = params.toString();
  win.history.replaceState(win.history.state, '', `${win.location.pathname}${win.location.search}${rest ? `#${rest}` : ''}`);
  return key;
}

export function saveKey(key: string, win: Window = window): Connection {
  win.sessionStorage.setItem(KEY_STORAGE, key);
  return { baseUrl: withoutTrailingSlashes(win.orator?.gatewayUrl ?? ''), apiKey: key };
}

export function forgetKey(win: Window = window): void {
  win.sessionStorage.removeItem(KEY_STORAGE);
}
