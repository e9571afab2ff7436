import type { BrowserWindow, Dialog } from 'electron';

/** Asks the person in a native dialog; true when they agree. */
export type Confirm = (question: { message: string; detail: string; action: string }) => Promise<boolean>;

/** The native dialog over the studio's window, "Cancel" its default: a stray Enter agrees to nothing. */
export function nativeConfirm(dialog: Pick<Dialog, 'showMessageBox'>, window: BrowserWindow): Confirm {
  return async ({ message, detail, action }) => {
    const { response } = await dialog.showMessageBox(window, {
      type: 'warning',
      message,
      detail,
      buttons: [action, 'Cancel'],
      defaultId: 1,
      cancelId: 1,
      noLink: true,
    });
    return response === 0;
  };
}
