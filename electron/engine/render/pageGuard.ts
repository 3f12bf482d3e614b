/**
 * The script every window of a render runs before any of its own (Playwright's init script). It is
 * the second lock on what a page may open besides the requests the route handler answers; the
 * browser's switches (browserArgs.ts) are the first.
 *
 * It removes WebRTC (`RTCPeerConnection` and every other `RTC*` interface) and WebTransport, and
 * makes `window.open` return null without opening anything. Chromium runs init scripts in every new
 * script context, an `about:blank` frame's included, as the page first touches it: measured with
 * Chromium 156, a page that appends a frame and takes `window[1].RTCPeerConnection` in the same
 * breath finds none (test/unit/render/webrtcLock.test.ts tries that and four other ways).
 *
 * Source text, evaluated by the browser: nothing here may close over Node values.
 */
export const PAGE_GUARD = `(() => {
  for (const name of Object.getOwnPropertyNames(window)) {
    if (/^(webkit)?RTC|^WebTransport/.test(name)) try { delete window[name]; } catch {}
  }
  Object.defineProperty(window, 'open', { value: function open() { return null; }, writable: false, configurable: false });
})();`;
