import type { Menu, MenuItemConstructorOptions, NativeImage, Tray } from 'electron';

export interface TrayState {
  windowVisible: boolean;
  queuePaused: boolean;
}

export interface TrayActions {
  toggleWindow(): void;
  copyApiUrl(): void;
  copyApiKey(): void;
  pauseQueue(): void;
  resumeQueue(): void;
  quit(): void;
}

/** The tray menu for the current state; labels say what a click will do. */
export function trayMenuTemplate(state: TrayState, actions: TrayActions): MenuItemConstructorOptions[] {
  return [
    { id: 'toggle-window', label: state.windowVisible ? 'Hide Studio' : 'Show Studio', click: actions.toggleWindow },
    { type: 'separator' },
    { id: 'copy-url', label: 'Copy API URL', click: actions.copyApiUrl },
    { id: 'copy-key', label: 'Copy API Key', click: actions.copyApiKey },
    { type: 'separator' },
    state.queuePaused
      ? { id: 'resume-queue', label: 'Resume Queue', click: actions.resumeQueue }
      : { id: 'pause-queue', label: 'Pause Queue', click: actions.pauseQueue },
    { type: 'separator' },
    { id: 'quit', label: 'Quit Orator', click: actions.quit },
  ];
}

export interface TrayDeps {
  Tray: new (image: NativeImage) => Tray;
  Menu: { buildFromTemplate(template: MenuItemConstructorOptions[]): Menu };
}

/**
 * The tray icon; its tooltip shows the gateway's instance id, the fingerprint clients can compare
 * with what GET /api/v1/tts/whoami answers. Every action rebuilds the menu afterwards, so labels follow the state (Linux
 * desktops show a copy of the menu and do not ask for it again on each open).
 */
export function createTray(
  deps: TrayDeps,
  icon: NativeImage,
  instance: string,
  state: () => TrayState,
  actions: TrayActions,
): { tray: Tray; refresh(): void } {
  const tray = new deps.Tray(icon);
  tray.setToolTip(`Orator: text-to-speech gateway · instance ${instance}`);
  const refresh = () => tray.setContextMenu(deps.Menu.buildFromTemplate(trayMenuTemplate(state(), withRefresh)));
  const withRefresh = Object.fromEntries(
    Object.entries(actions).map(([name, action]: [string, () => void]) => [
      name,
      () => {
        action();
        refresh();
      },
    ]),
  ) as unknown as TrayActions;
  // Windows and macOS: a click on the icon itself toggles the studio.
  tray.on('click', withRefresh.toggleWindow);
  refresh();
  return { tray, refresh };
}
