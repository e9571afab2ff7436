import type { PersistStorage, StorageValue } from 'zustand/middleware';

const DELAY_MS = 400;

/**
 * localStorage for zustand's persist, written at most every 400 ms: the store changes on every
 * job event, and serialising a whole novel of draft each time would make typing and playback
 * stutter. Pending writes are flushed when the page is hidden or closed. A full quota is ignored:
 * the studio keeps working, the draft is just not saved that time.
 */
export function deferredLocalStorage<S>(): PersistStorage<S> & { flush(): void } {
  const pending = new Map<string, StorageValue<S>>();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    for (const [name, value] of pending) {
      try {
        localStorage.setItem(name, JSON.stringify(value));
      } catch {
        // over quota or storage disabled
      }
    }
    pending.clear();
  };
  if (typeof window !== 'undefined') {
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && flush());
  }

  return {
    getItem(name) {
      try {
        const raw = localStorage.getItem(name);
        return raw ? (JSON.parse(raw) as StorageValue<S>) : null;
      } catch {
        return null;
      }
    },
    setItem(name, value) {
      pending.set(name, value);
      timer ??= setTimeout(flush, DELAY_MS);
    },
    removeItem(name) {
      pending.delete(name);
      try {
        localStorage.removeItem(name);
      } catch {
        // ignore
      }
    },
    flush,
  };
}
