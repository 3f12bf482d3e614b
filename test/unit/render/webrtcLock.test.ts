import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import { browserArgs, WEBRTC_LOCK } from '../../../electron/engine/render/browserArgs.js';
import { BrowserPool } from '../../../electron/engine/render/browserPool.js';
import type { BrokerAnswer } from '../../../electron/engine/render/types.js';
import { PROBE_SOURCES, rtcProbePage, startRtcListeners, type RtcListeners } from '../../helpers/rtcProbe.js';

const CHROMIUM = '/usr/bin/chromium';
const ORIGIN = 'http://page.test.invalid';
/** Generous: the probe's own waits are 3 s each, and the machine is shared. */
const PROBE_TIMEOUT_MS = 60_000;

/** Resolves when the probe asks for /gathered; rejects, naming it, if it never does. */
function gatheredSignal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<void>((ok, fail) => {
    resolve = () => (clearTimeout(timer), ok());
    timer = setTimeout(() => fail(new Error('the probe page never finished its attempts (/gathered was not asked for)')), PROBE_TIMEOUT_MS);
  });
  return { promise, resolve };
}

const empty: BrokerAnswer = { response: { status: 200, headers: { 'content-type': 'text/plain' }, body: Buffer.from('ok') } };

/** Renders the probe in a bare browser with the given switches (no page guard) and counts what reached the listeners. */
async function probeBareBrowser(l: RtcListeners, args: string[]): Promise<{ udp: number; tcp: number }> {
  const udp0 = l.udpPackets;
  const tcp0 = l.tcpConnections;
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, chromiumSandbox: false, args });
  try {
    const context = await browser.newContext();
    const gathered = gatheredSignal();
    await context.route('**/*', async (route) => {
      const url = new URL(route.request().url());
      if (url.pathname === '/') return route.fulfill({ status: 200, contentType: 'text/html', body: rtcProbePage(l) });
      if (url.pathname === '/gathered') gathered.resolve();
      if (url.pathname === '/hold') await gathered.promise.catch(() => {});
      return route.fulfill({ status: 200, contentType: 'text/plain', body: 'ok' });
    });
    const page = await context.newPage();
    await page.goto(`${ORIGIN}/`);
    await gathered.promise;
  } finally {
    await browser.close();
  }
  return { udp: l.udpPackets - udp0, tcp: l.tcpConnections - tcp0 };
}

describe("WebRTC in Harvest's own browsers", { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed` }, () => {
  let listeners: RtcListeners;
  before(async () => {
    listeners = await startRtcListeners();
  });
  after(() => listeners?.close());

  it("the browser's switches alone keep peer connections from reaching STUN/TURN servers (which they reach without)", async () => {
    const unlocked = await probeBareBrowser(
      listeners,
      browserArgs(256).filter((a) => !WEBRTC_LOCK.includes(a)),
    );
    assert.ok(unlocked.udp > 0, 'without the WebRTC switches the probe reaches the UDP listener (the probe works)');
    const locked = await probeBareBrowser(listeners, browserArgs(256));
    assert.deepEqual(locked, { udp: 0, tcp: 0 }, 'with them, nothing reaches the listeners');
  });

  it('a rendered page finds no WebRTC in any frame or popup, and nothing reaches the listeners', async () => {
    const pool = new BrowserPool({ executablePath: CHROMIUM, pages: 1, maxPageHeapMb: 256, pageTimeoutMs: 45_000, settleMs: 20_000, screenshots: false });
    const gathered = gatheredSignal();
    const udp0 = listeners.udpPackets;
    const tcp0 = listeners.tcpConnections;
    try {
      const page = await pool.render({
        url: `${ORIGIN}/`,
        response: { status: 200, headers: { 'content-type': 'text/html' }, body: Buffer.from(rtcProbePage(listeners)) },
        signal: new AbortController().signal,
        broker: {
          answer: async (req) => {
            const path = new URL(req.url).pathname;
            if (path === '/gathered') gathered.resolve();
            if (path === '/hold') await gathered.promise.catch(() => {});
            return empty;
          },
        },
      });
      await gathered.promise;
      const report = /<pre id="rtc">([^<]*)<\/pre>/.exec(page.html)?.[1] ?? '';
      const expected = PROBE_SOURCES.map((s) => `${s}: ${s === 'popup' ? 'no window' : 'none'}`);
      assert.deepEqual(report.split('\n').slice(0, PROBE_SOURCES.length), expected, `the probe's report:\n${report}`);
      assert.match(report, /websocket: (failed|no answer)/);
    } finally {
      await pool.close();
    }
    assert.deepEqual({ udp: listeners.udpPackets - udp0, tcp: listeners.tcpConnections - tcp0 }, { udp: 0, tcp: 0 });
  });
});
