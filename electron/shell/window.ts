import type { BrowserWindow, BrowserWindowConstructorOptions, NativeImage } from 'electron';
import { APP_ENTRY } from './app-protocol';
import { secureWebPreferences } from './security';

export function studioWindowOptions(preload: string, icon: NativeImage): BrowserWindowConstructorOptions {
  return {
    title: 'Orator',
    width: 1280,
    height: 820,
    minWidth: 1024,
    minHeight: 700,
    // Shown on ready-to-show, so the page never flashes white before its theme is applied.
    show: false,
    icon,
    webPreferences: secureWebPreferences(preload),
  };
}

export interface StudioWindowOptions {
  preload: string;
  icon: NativeImage;
  /** Asked on every close: true hides the window to the tray instead. */
  hideOnClose(): boolean;
  /** Called when the window shows or hides, so the tray can relabel its menu. */
  onVisibilityChange(): void;
}

/** The studio window, loading the built renderer from app://orator. */
export function createStudioWindow(
  BrowserWindowClass: new (options: BrowserWindowConstructorOptions) => BrowserWindow,
  options: StudioWindowOptions,
): BrowserWindow {
  // Navigation and window.open are guarded for every web contents by runDesktop (web-contents-created).
  const win = new BrowserWindowClass(studioWindowOptions(options.preload, options.icon));
  win.once('ready-to-show', () => win.show());
  win.on('close', (event) => {
    if (!options.hideOnClose()) return;
    event.preventDefault();
    win.hide();
  });
  win.on('show', options.onVisibilityChange);
  win.on('hide', options.onVisibilityChange);
  void win.loadURL(APP_ENTRY);
  return win;
}
