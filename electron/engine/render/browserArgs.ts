/**
 * The command line of every browser Harvest launches (rendered capture, thumbnails, QA), in one
 * place so all of them are locked down alike.
 */

/**
 * The proxy every request meets if it slips past the route handler: nothing listens on port 9, and
 * loopback is not bypassed (`<-loopback>`), so such a request fails instead of reaching a server.
 */
export const DEAD_PROXY = 'http://127.0.0.1:9';

/**
 * WebRTC may use only connections through the proxy (no UDP at all, no host candidates, TURN over
 * TCP only through the dead proxy): measured with Chromium 156, a page's peer connection then sends
 * nothing to a STUN or TURN server on loopback, where without it 22 UDP packets arrived. Chromium
 * 156 knows only `--webrtc-ip-handling-policy`; older builds (a `--browser-path` of the user's
 * choice) only `--force-webrtc-ip-handling-policy`. Each ignores the other's name.
 */
export const WEBRTC_LOCK = ['--webrtc-ip-handling-policy=disable_non_proxied_udp', '--force-webrtc-ip-handling-policy=disable_non_proxied_udp'];

/**
 * Switches that keep a headless browser from reaching anything on its own: no component or
 * safe-browsing updates, no sync, no background traffic, no QUIC (HTTP/3 and WebTransport would
 * leave over UDP, around the proxy), WebRTC locked to the proxy; and the renderer's V8 heap capped.
 */
export function browserArgs(maxPageHeapMb: number): string[] {
  return [
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-default-apps',
    '--disable-extensions',
    '--mute-audio',
    '--disable-quic',
    `--proxy-server=${DEAD_PROXY}`,
    '--proxy-bypass-list=<-loopback>',
    ...WEBRTC_LOCK,
    `--js-flags=--max-old-space-size=${maxPageHeapMb}`,
  ];
}

/**
 * Chromium's sandbox stays on, except where it cannot start: as root on Linux (containers, CI),
 * Chromium refuses to run with it.
 */
export function sandboxAllowed(): boolean {
  return !(process.platform === 'linux' && process.getuid?.() === 0);
}
