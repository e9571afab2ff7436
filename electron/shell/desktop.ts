import path from 'node:path';
import type * as ElectronModule from 'electron';
import type { BrowserWindow } from 'electron';
import { configFromArgs } from '../gateway/config';
import { defaultDataDir } from '../storage/data-dir';
import { startGateway, type Gateway } from '../gateway/start';
import { readSavedSettings } from '../settings/store';
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, appProtocolHandler } from './app-protocol';
import { registerIpc } from './ipc';
import { nativeConfirm } from './confirm';
import { settingsActions } from './settings-actions';
import { voiceLibraryActions } from './voice-library-actions';
import { authorizeJobAudio } from './media-auth';
import { installQuitSequence } from './quit';
import { denyAllPermissions, guardWebContents } from './security';
import { createTray } from './tray';
import { createStudioWindow } from './window';

/** The parts of the `electron` module the shell uses; injected so that tests can pass a double. */
export type ElectronMain = Pick<
  typeof ElectronModule,
  'app' | 'BrowserWindow' | 'Tray' | 'Menu' | 'nativeImage' | 'clipboard' | 'shell' | 'ipcMain' | 'protocol' | 'session' | 'dialog'
>;

export interface DesktopOptions {
  /** The build output: preload.cjs, synth-worker.mjs and renderer/. */
  distDir: string;
  /** Icons (resources/icons). */
  iconDir: string;
  /** ORATOR_HOST, ORATOR_PORT, ORATOR_API_KEY and ORATOR_DATA_DIR apply as in `npm run serve`. */
  env: NodeJS.ProcessEnv;
}

export interface Desktop {
  gateway: Gateway;
  window: BrowserWindow;
  /** Resolves once a quit has shut the gateway down. */
  quitDone: Promise<void>;
}

/**
 * The desktop app: one instance, the gateway in-process on userData, the studio window, the tray.
 * Must be called before the app is ready (the app:// scheme is registered then). Null when another
 * instance runs (it is asked to show its window instead) or when the gateway could not start.
 */
export async function runDesktop(electron: ElectronMain, options: DesktopOptions): Promise<Desktop | null> {
  const { app } = electron;
  // Set before anything else: the single-instance lock and Chromium's own files live there too.
  // Explicit, because unpackaged (npm start) Electron would name the folder after package.json's
  // lower-case "name" and miss the folder that `npm run serve` uses.
  app.setPath('userData', options.env.ORATOR_DATA_DIR ? path.resolve(options.env.ORATOR_DATA_DIR) : defaultDataDir());
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  electron.protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents));
  await app.whenReady();

  const dataDir = app.getPath('userData');
  const rendererDir = path.join(options.distDir, 'renderer');
  const gateway = await startInAppGateway(electron, options, dataDir, rendererDir);
  if (!gateway) return null;

  const gatewayOrigin = new URL(gateway.url).origin;
  electron.protocol.handle(APP_SCHEME, appProtocolHandler(rendererDir, gatewayOrigin));
  denyAllPermissions(electron.session.defaultSession);
  // The studio's player streams job audio; the key is read live, as it can be regenerated.
  authorizeJobAudio(electron.session.defaultSession, gatewayOrigin, () => gateway.apiKey);

  let quitting = false;
  const icon = (name: string) => electron.nativeImage.createFromPath(path.join(options.iconDir, name));
  const window = createStudioWindow(electron.BrowserWindow, {
    preload: path.join(options.distDir, 'preload.cjs'),
    icon: icon('icon.png'),
    // Read at each close, so the settings panel's choice applies without a restart.
    hideOnClose: () => !quitting && (readSavedSettings(dataDir).close_to_tray ?? true),
    onVisibilityChange: () => tray.refresh(),
  });
  const showWindow = () => {
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  };

  const tray = createTray(
    electron,
    icon('tray.png'),
    gateway.instance,
    () => ({ windowVisible: window.isVisible(), queuePaused: gateway.queuePaused }),
    {
      toggleWindow: () => (window.isVisible() ? window.hide() : showWindow()),
      copyApiUrl: () => electron.clipboard.writeText(gateway.url),
      copyApiKey: () => electron.clipboard.writeText(gateway.apiKey),
      pauseQueue: () => gateway.pauseQueue(),
      resumeQueue: () => gateway.resumeQueue(),
      quit: () => app.quit(),
    },
  );

  const confirm = nativeConfirm(electron.dialog, window);
  registerIpc(electron.ipcMain, {
    connection: () => ({ gatewayUrl: gateway.url, apiKey: gateway.apiKey, appVersion: app.getVersion() }),
    openDataFolder: async () => {
      const problem = await electron.shell.openPath(dataDir);
      if (problem) throw new Error(problem);
    },
    copyToClipboard: (text) => electron.clipboard.writeText(text),
    ...settingsActions(gateway.settings, confirm),
    ...voiceLibraryActions(gateway.voiceLibrary, confirm),
  });

  app.on('second-instance', showWindow);
  app.on('activate', showWindow); // macOS: a click on the Dock icon
  // Reached only when closing does not hide to the tray: then nothing would be left to quit with.
  app.on('window-all-closed', () => app.quit());
  const { done } = installQuitSequence(
    app,
    () => gateway.close(),
    () => {
      quitting = true;
      tray.tray.destroy();
    },
  );

  console.log(`Orator gateway at ${gateway.url}/ · instance ${gateway.instance} · API key in ${gateway.apiKeyFile}`);
  return { gateway, window, quitDone: done };
}

/** The gateway in this process, on the app's data folder; null once the person is told why it did not start (the app then exits). */
async function startInAppGateway(
  electron: ElectronMain,
  options: DesktopOptions,
  dataDir: string,
  rendererDir: string,
): Promise<Gateway | null> {
  try {
    const config = configFromArgs([], { ...options.env, ORATOR_DATA_DIR: dataDir });
    // Read once: the renderer, GPU and utility processes Electron starts need no key in their environment.
    delete options.env.ORATOR_API_KEY;
    return await startGateway({ ...config, staticDir: rendererDir }, { workerFile: path.join(options.distDir, 'synth-worker.mjs') });
  } catch (error) {
    const inUse = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
    const detail = inUse
      ? 'Its port is taken, perhaps by `npm run serve` on the same data folder. Stop that, or set ORATOR_PORT.'
      : (error as Error).message;
    electron.dialog.showErrorBox('Orator could not start', `The gateway did not start. ${detail}`);
    electron.app.exit(1);
    return null;
  }
}
