/** The part of Electron's WebContents the policies below use (kept apart so they can be tested without Electron). */
export interface SealableContents {
  setWindowOpenHandler(handler: () => { action: 'deny' }): void;
  setWebRTCIPHandlingPolicy(policy: 'disable_non_proxied_udp'): void;
  on(event: 'will-attach-webview', listener: (e: { preventDefault(): void }) => void): unknown;
}

/**
 * What every web contents of the app gets, archived pages' frames included: no new windows, no
 * webviews, and WebRTC kept off the network (no UDP except through a proxy, and the app has none),
 * since a page's RTCPeerConnection reaches STUN servers past every CSP and request filter.
 */
export function sealContents(contents: SealableContents): void {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-attach-webview', (e) => e.preventDefault());
  contents.setWebRTCIPHandlingPolicy('disable_non_proxied_udp');
}
