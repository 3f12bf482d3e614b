import { createSocket } from 'node:dgram';
import { createServer, type Socket } from 'node:net';

/** A STUN/TURN server stand-in on 127.0.0.1: counts every UDP packet and TCP connection that reaches it. */
export interface RtcListeners {
  udpPort: number;
  tcpPort: number;
  udpPackets: number;
  tcpConnections: number;
  close(): Promise<void>;
}

export async function startRtcListeners(): Promise<RtcListeners> {
  const udp = createSocket('udp4');
  const sockets = new Set<Socket>();
  const tcp = createServer((s) => {
    listeners.tcpConnections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
  });
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  const listeners: RtcListeners = {
    udpPort: udp.address().port,
    tcpPort: (tcp.address() as { port: number }).port,
    udpPackets: 0,
    tcpConnections: 0,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
  udp.on('message', () => listeners.udpPackets++);
  return listeners;
}

/** Where the probe takes a peer connection from, in the order of its report lines. */
export const PROBE_SOURCES = ['page', 'parsed frame', 'appended frame', 'innerHTML frame', 'contentWindow', 'popup'];

/**
 * A page that tries every way to WebRTC it can: `RTCPeerConnection` of the page, of `about:blank`
 * frames (one the parser inserts, one appended and read through `window[1]` at once, one written by
 * innerHTML, one read through `contentWindow`) and of a popup, each with a STUN server and TURN
 * over UDP and TCP on the listeners; and a WebSocket to the TCP listener. It reports each attempt
 * in `<pre id="rtc">` ("<source>: none" where no constructor was found), and, once every attempt
 * has finished gathering (or 3 s passed), asks for `/gathered`. It asks for `/hold` at once: a
 * broker that answers it only after `/gathered` keeps the render open while candidates are gathered.
 * The page is tall, so a render spends a while scrolling it in any case.
 */
export function rtcProbePage(l: Pick<RtcListeners, 'udpPort' | 'tcpPort'>): string {
  const script = `
(async () => {
  fetch('/hold').catch(() => {});
  const servers = [
    { urls: 'stun:127.0.0.1:${l.udpPort}' },
    { urls: ['turn:127.0.0.1:${l.udpPort}?transport=udp', 'turn:127.0.0.1:${l.tcpPort}?transport=tcp'], username: 'probe', credential: 'probe' },
  ];
  const take = (w) => { try { return w ? w.RTCPeerConnection || w.webkitRTCPeerConnection || null : 'no window'; } catch (e) { return e.name; } };
  const found = [];
  found.push(take(window));
  found.push(take(window[0]));
  document.body.appendChild(document.createElement('iframe'));
  found.push(take(window[1]));
  const holder = document.createElement('div');
  document.body.appendChild(holder);
  holder.innerHTML = '<iframe></iframe>';
  found.push(take(window[2]));
  const f = document.createElement('iframe');
  document.body.appendChild(f);
  found.push(take(f.contentWindow));
  let popup = null;
  try { popup = window.open('about:blank', '_blank'); } catch {}
  found.push(take(popup));
  const ws = new Promise((resolve) => {
    try {
      const s = new WebSocket('ws://127.0.0.1:${l.tcpPort}/');
      s.onopen = () => resolve('open');
      s.onerror = () => resolve('failed');
      setTimeout(() => resolve('no answer'), 3000);
    } catch (e) { resolve(e.name); }
  });
  const attempt = async (PC) => {
    if (PC === null) return 'none';
    if (typeof PC !== 'function') return String(PC);
    try {
      const pc = new PC({ iceServers: servers });
      pc.createDataChannel('probe');
      await pc.setLocalDescription(await pc.createOffer());
      await new Promise((r) => {
        const t = setTimeout(r, 3000);
        pc.onicegatheringstatechange = () => { if (pc.iceGatheringState === 'complete') { clearTimeout(t); r(); } };
      });
      return 'peer connection made';
    } catch (e) { return 'refused: ' + e.name; }
  };
  const results = await Promise.all(found.map(attempt));
  const names = ${JSON.stringify(PROBE_SOURCES)};
  document.getElementById('rtc').textContent = results.map((r, i) => names[i] + ': ' + r).join('\\n') + '\\nwebsocket: ' + (await ws);
  fetch('/gathered').catch(() => {});
})();`;
  return `<!DOCTYPE html><html><head><title>rtc probe</title></head><body><iframe></iframe><pre id="rtc">probing</pre><div style="height:12000px"></div><script>${script}</script></body></html>`;
}
