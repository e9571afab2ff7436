import type { Session, WebContents, WebPreferences } from 'electron';
import { isAppUrl } from './app-protocol';

/** Electron's security checklist, as webPreferences of the studio window. */
export function secureWebPreferences(preload: string): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
  };
}

/**
 * The studio's Content-Security-Policy: its own scripts only, network only to the gateway.
 * Styles allow 'unsafe-inline' because wavesurfer.js puts a <style> into its shadow root; no
 * script may be inline, evaluated or remote.
 */
export function contentSecurityPolicy(gatewayOrigin: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src ${gatewayOrigin}`,
    `media-src ${gatewayOrigin} blob:`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-src 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Keeps the window on the studio: no navigation away from app://orator (a reload stays allowed),
 * no new windows, no <webview>. Links in the studio open nothing; it has no reason to leave.
 */
export function guardWebContents(contents: WebContents): void {
  const stayInApp = (event: { preventDefault(): void }, url: string) => {
    if (!isAppUrl(url)) event.preventDefault();
  };
  contents.on('will-navigate', stayInApp);
  contents.on('will-redirect', stayInApp);
  contents.on('will-frame-navigate', (event) => {
    if (!isAppUrl(event.url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

/** The studio needs no camera, microphone, notifications, geolocation, HID, USB or serial port. */
export function denyAllPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}
