/** The app's own origin: the renderer is served from here and nowhere else. */
export const APP_SCHEME = 'harvest-app';
export const APP_ORIGIN = `${APP_SCHEME}://app`;

export interface SenderFacts {
  /** URL of the frame that sent the IPC message (event.senderFrame.url). */
  frameUrl: string | undefined;
  /** Whether that frame is its window's top frame (not an iframe such as the archive viewer). */
  isTopFrame: boolean;
  /** webContents id of the sender and of the app's window. */
  senderId: number;
  appWindowId: number | null;
}

/**
 * IPC is only answered for the app's own window, top frame, showing the app's own origin: an
 * archived page in a frame, or anything navigated elsewhere, gets nothing.
 */
export function isTrustedSender(s: SenderFacts): boolean {
  if (s.appWindowId === null || s.senderId !== s.appWindowId || !s.isTopFrame || !s.frameUrl) return false;
  let url: URL;
  try {
    url = new URL(s.frameUrl);
  } catch {
    return false;
  }
  return url.protocol === `${APP_SCHEME}:` && url.host === 'app' && url.username === '' && url.password === '';
}
