/**
 * A minimal test double of the `electron` module. The Electron binary cannot be downloaded on the
 * machines these tests run on (no GitHub access), and in plain Node `require('electron')` is only
 * the path of that binary; so the shell's tests pass this double to runDesktop instead. It records
 * what the shell asks of Electron and lets tests fire the events Electron would fire. Only the
 * members the shell uses exist; the cast at the end is the one place the types are bent.
 */
import { EventEmitter } from 'node:events';
import type { MenuItemConstructorOptions } from 'electron';
import type { ElectronMain } from '../desktop';

export class PreventableEvent {
  defaultPrevented = false;
  constructor(readonly url = '') {}
  preventDefault() {
    this.defaultPrevented = true;
  }
}

class WebContentsDouble extends EventEmitter {
  windowOpenHandler?: (details: { url: string }) => { action: 'allow' | 'deny' };
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'allow' | 'deny' }) {
    this.windowOpenHandler = handler;
  }
}

export function createElectronDouble(options: { lock?: boolean } = {}) {
  const paths = new Map<string, string>();
  const calls = {
    quit: 0,
    exit: [] as number[],
    clipboard: [] as string[],
    openedPaths: [] as string[],
    errorBoxes: [] as string[],
    /** Native questions asked (showMessageBox), and the buttons the person will press, in order (default: Cancel). */
    questions: [] as { message: string; detail?: string; buttons: string[] }[],
    answers: [] as string[],
    schemes: [] as unknown[],
  };
  const protocolHandlers = new Map<string, (request: Request) => Promise<Response>>();
  const ipcHandlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>();
  const ipcListeners = new Map<string, (event: { returnValue?: unknown; senderFrame: unknown }) => void>();
  const permissions: {
    request?: (c: unknown, p: string, cb: (ok: boolean) => void) => void;
    check?: () => boolean;
    device?: () => boolean;
  } = {};
  /** What the shell registered with session.webRequest.onBeforeSendHeaders (Electron keeps one). */
  const webRequest: { filter?: { urls: string[] }; beforeSendHeaders?: (details: unknown, callback: (response: unknown) => void) => void } =
    {};
  const windows: BrowserWindowDouble[] = [];
  const trays: TrayDouble[] = [];

  const app = Object.assign(new EventEmitter(), {
    requestSingleInstanceLock: () => options.lock ?? true,
    whenReady: () => Promise.resolve(),
    setPath: (name: string, value: string) => paths.set(name, value),
    getPath: (name: string) => {
      const value = paths.get(name);
      if (value === undefined) throw new Error(`the double knows only paths set before, not ${name}`);
      return value;
    },
    getVersion: () => '0.1.0-test',
    /** Like Electron: before-quit first; quitting goes on only when no listener prevented it. */
    quit() {
      calls.quit++;
      const event = new PreventableEvent();
      app.emit('before-quit', event);
      if (!event.defaultPrevented) for (const win of windows) win.emit('close', new PreventableEvent());
    },
    exit: (code = 0) => calls.exit.push(code),
  });

  class BrowserWindowDouble extends EventEmitter {
    readonly webContents = new WebContentsDouble();
    visible = false;
    loadedUrl = '';
    constructor(readonly options: Electron.BrowserWindowConstructorOptions) {
      super();
      windows.push(this);
      app.emit('web-contents-created', {}, this.webContents);
    }
    loadURL(url: string) {
      this.loadedUrl = url;
      return Promise.resolve();
    }
    show() {
      this.visible = true;
      this.emit('show');
    }
    hide() {
      this.visible = false;
      this.emit('hide');
    }
    isVisible = () => this.visible;
    isMinimized = () => false;
    restore() {}
    focus() {}
  }

  class TrayDouble extends EventEmitter {
    menu: MenuItemConstructorOptions[] = [];
    toolTip = '';
    destroyed = false;
    constructor(readonly image: unknown) {
      super();
      trays.push(this);
    }
    setToolTip(text: string) {
      this.toolTip = text;
    }
    setContextMenu(menu: { template: MenuItemConstructorOptions[] }) {
      this.menu = menu.template;
    }
    destroy() {
      this.destroyed = true;
    }
    /** Clicks the menu item with this id, as a person would. */
    click(id: string) {
      const item = this.menu.find((i) => i.id === id);
      if (!item?.click) throw new Error(`no tray menu item "${id}"; the menu has ${this.menu.map((i) => i.id).join(', ')}`);
      (item.click as () => void)();
    }
  }

  const electron = {
    app,
    BrowserWindow: BrowserWindowDouble,
    Tray: TrayDouble,
    Menu: { buildFromTemplate: (template: MenuItemConstructorOptions[]) => ({ template }) },
    nativeImage: { createFromPath: (file: string) => ({ file }) },
    clipboard: { writeText: (text: string) => calls.clipboard.push(text) },
    shell: {
      openPath: async (file: string) => {
        calls.openedPaths.push(file);
        return '';
      },
    },
    ipcMain: {
      handle: (channel: string, handler: (event: unknown, ...args: unknown[]) => unknown) => ipcHandlers.set(channel, handler),
      on: (channel: string, listener: (event: { returnValue?: unknown; senderFrame: unknown }) => void) =>
        ipcListeners.set(channel, listener),
    },
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown[]) => calls.schemes.push(...schemes),
      handle: (scheme: string, handler: (request: Request) => Promise<Response>) => protocolHandlers.set(scheme, handler),
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (h: typeof permissions.request) => (permissions.request = h),
        setPermissionCheckHandler: (h: typeof permissions.check) => (permissions.check = h),
        setDevicePermissionHandler: (h: typeof permissions.device) => (permissions.device = h),
        webRequest: {
          onBeforeSendHeaders: (filter: { urls: string[] }, listener: typeof webRequest.beforeSendHeaders) => {
            webRequest.filter = filter;
            webRequest.beforeSendHeaders = listener;
          },
        },
      },
    },
    dialog: {
      showErrorBox: (title: string, content: string) => calls.errorBoxes.push(`${title}: ${content}`),
      showMessageBox: async (_window: unknown, question: { message: string; detail?: string; buttons: string[]; cancelId: number }) => {
        calls.questions.push(question);
        const pressed = question.buttons.indexOf(calls.answers.shift() ?? '');
        return { response: pressed === -1 ? question.cancelId : pressed };
      },
    },
  };

  return {
    electron: electron as unknown as ElectronMain,
    app,
    calls,
    windows,
    trays,
    permissions,
    protocolHandlers,
    webRequest,
    /**
     * Runs the onBeforeSendHeaders listener as Electron would for a request the filter let through
     * (matching the filter's URL patterns is Electron's part; tests check the patterns themselves).
     * Returns the headers the request goes out with.
     */
    beforeSendHeaders: (details: { url: string; method?: string; pageUrl?: string; requestHeaders?: Record<string, string> }) =>
      new Promise<Record<string, string>>((resolve) => {
        const requestHeaders = details.requestHeaders ?? {};
        const frame = details.pageUrl === undefined ? undefined : { url: details.pageUrl, parent: null };
        webRequest.beforeSendHeaders!(
          { url: details.url, method: details.method ?? 'GET', frame, requestHeaders, resourceType: 'media', referrer: '' },
          (response) => resolve((response as { requestHeaders?: Record<string, string> }).requestHeaders ?? requestHeaders),
        );
      }),
    /** Calls an ipcMain.handle handler as if a frame at `url` (a subframe when `subframe`) invoked it. */
    invoke: (channel: string, frame: { url: string; subframe?: boolean }, ...args: unknown[]) =>
      Promise.resolve().then(() => ipcHandlers.get(channel)!({ senderFrame: senderFrame(frame) }, ...args)),
    /** Sends an ipcRenderer.sendSync message; returns what the listener put in returnValue. */
    sendSync: (channel: string, frame: { url: string; subframe?: boolean }) => {
      const event: { returnValue?: unknown; senderFrame: unknown } = { senderFrame: senderFrame(frame) };
      ipcListeners.get(channel)!(event);
      return event.returnValue;
    },
  };
}

function senderFrame(frame: { url: string; subframe?: boolean }) {
  return { url: frame.url, parent: frame.subframe ? {} : null };
}
