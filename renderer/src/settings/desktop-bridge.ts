import type { OratorBridge } from '../../../electron/shell/bridge';

/** The preload's bridge in the desktop app, null in a browser. */
export function desktopBridge(): OratorBridge | null {
  // Typed here with the bridge's own type: the studio's Window declaration lists only what it reads.
  const bridge = (window as unknown as { orator?: Partial<OratorBridge> }).orator;
  return bridge?.openDataFolder && bridge.copyToClipboard ? (bridge as OratorBridge) : null;
}

export async function copyText(text: string): Promise<void> {
  const bridge = desktopBridge();
  // The desktop window denies the clipboard permission to the page; main copies instead.
  if (bridge) return bridge.copyToClipboard(text);
  await navigator.clipboard.writeText(text);
}
