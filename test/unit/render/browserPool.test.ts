import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { BrowserPool } from '../../../electron/engine/render/browserPool.js';
import { SLOT_RENDERS } from '../../../electron/engine/render/pageSession.js';
import { RenderAbortedError, RenderFailedError, type BrokerAnswer, type RenderTarget } from '../../../electron/engine/render/types.js';
import { decodePngSize } from '../../helpers/pngCheck.js';

const CHROMIUM = '/usr/bin/chromium';
const ORIGIN = 'http://page.test.invalid';

function html(body: string) {
  return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: Buffer.from(`<!DOCTYPE html><html><head><title>t</title></head><body>${body}</body></html>`) };
}

function target(body: string, answer: (url: string) => Promise<BrokerAnswer> | BrokerAnswer, signal = new AbortController().signal): RenderTarget {
  return { url: `${ORIGIN}/`, response: html(body), broker: { answer: async (req) => answer(req.url) }, signal };
}

const refuseAll = (): BrokerAnswer => ({ refused: 'test' });

describe('BrowserPool', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed` }, () => {
  const pool = new BrowserPool({ executablePath: CHROMIUM, pages: 2, maxPageHeapMb: 64, pageTimeoutMs: 20_000, settleMs: 2_000, screenshots: true });
  after(() => pool.close());

  it('captures what scripts build, answering requests through the broker only', async () => {
    const asked: string[] = [];
    const page = await pool.render(
      target(`<ul id="l"></ul><script>fetch('/data.json').then((r) => r.json()).then((d) => { document.getElementById('l').innerHTML = '<li>' + d.name + '</li>'; });</script>`, (url) => {
        asked.push(url);
        return { response: { status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"name":"from data"}') } };
      }),
    );
    assert.deepEqual(asked, [`${ORIGIN}/data.json`]);
    assert.match(page.html, /<li>from data<\/li>/);
    assert.doesNotMatch(page.html, /<script/);
    assert.ok(page.html.startsWith('\uFEFF<!DOCTYPE html>'));
    assert.deepEqual(decodePngSize(page.thumbnail), { width: 320, height: 200 });
    assert.equal(decodePngSize(page.screenshot!).width, 1280);
  });

  it('gives up on a page that keeps crashing, with the reason, after one retry', async () => {
    // Grows its heap past the 64 MB cap: the renderer dies of it, every time.
    const hog = `<script>const keep = []; for (;;) keep.push(new Array(1e6).fill(keep.length));</script>`;
    await assert.rejects(pool.render(target(hog, refuseAll)), (e: unknown) => e instanceof RenderFailedError && /failed twice: .*crash/.test(e.message));
    // The pool still renders afterwards.
    const page = await pool.render(target('<p>after</p>', refuseAll));
    assert.match(page.html, /<p>after<\/p>/);
  });

  it('starts the browser again when it dies, and retries the page', async () => {
    const before = pool.launches;
    let killed = false;
    const page = await pool.render(
      target(`<img src="/kill.png"><p>survived</p>`, async () => {
        if (!killed) {
          killed = true;
          await (await pool.current())!.close();
        }
        return refuseAll();
      }),
    );
    assert.ok(killed);
    assert.match(page.html, /survived/);
    assert.equal(pool.launches, before + 1);
  });

  it('abandons a render when its signal is aborted', async () => {
    const abort = new AbortController();
    const rendering = pool.render(target(`<img src="/slow.png">`, () => new Promise<BrokerAnswer>(() => setTimeout(() => abort.abort(), 50)), abort.signal));
    await assert.rejects(rendering, RenderAbortedError);
  });

  it('gives a page place a fresh context after SLOT_RENDERS renders, so what Playwright keeps of its requests is freed', async () => {
    const browser = await pool.current();
    assert.ok(browser, 'the browser runs');
    const newContext = browser.newContext.bind(browser);
    let made = 0;
    browser.newContext = (...args: Parameters<typeof newContext>) => {
      made++;
      return newContext(...args);
    };
    try {
      // One after another, so each takes the page place the last one left.
      for (let i = 0; i <= SLOT_RENDERS; i++) await pool.render(target(`<p>page ${i}</p>`, refuseAll));
    } finally {
      browser.newContext = newContext;
    }
    assert.ok(made >= 1 && made <= 2, `${made} contexts opened over ${SLOT_RENDERS + 1} renders`);
  });
});
