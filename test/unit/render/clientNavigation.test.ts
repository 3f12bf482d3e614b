import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { BrowserPool } from '../../../electron/engine/render/browserPool.js';
import type { RenderedPage } from '../../../electron/engine/render/types.js';
import { decodePngSize } from '../../helpers/pngCheck.js';

const CHROMIUM = '/usr/bin/chromium';
const ORIGIN = 'http://page.test.invalid';

describe('client-side redirects and routes', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed` }, () => {
  const pool = new BrowserPool({ executablePath: CHROMIUM, pages: 1, maxPageHeapMb: 256, pageTimeoutMs: 20_000, settleMs: 3_000, screenshots: true });
  after(() => pool.close());

  const render = (head: string, body: string): Promise<RenderedPage> =>
    pool.render({
      url: `${ORIGIN}/start`,
      response: { status: 200, headers: { 'content-type': 'text/html' }, body: Buffer.from(`<!DOCTYPE html><html><head><title>t</title>${head}</head><body>${body}</body></html>`) },
      broker: { answer: async () => ({ refused: 'test' }) },
      signal: new AbortController().signal,
    });

  it('captures a page that calls location.replace() in its head, never painted, with blank pictures', async () => {
    // The document stops parsing and is never painted: waiting for its animation frames or a
    // screenshot of it used to take the whole page limit, twice, and fail the page.
    const page = await render(`<script>location.replace('/landing');</script>`, '<p>never parsed</p>');
    assert.deepEqual(page.navigations, [`${ORIGIN}/landing`]);
    assert.equal(page.timedOut, false);
    assert.match(page.html, /<meta http-equiv="refresh" content="0; url=http:\/\/page\.test\.invalid\/landing">/);
    assert.deepEqual(decodePngSize(page.thumbnail), { width: 320, height: 200 });
    assert.deepEqual(decodePngSize(page.screenshot!), { width: 1280, height: 800 });
  });

  it('follows a meta refresh in the head', async () => {
    const page = await render(`<meta http-equiv="refresh" content="0; url=/landing">`, '<p>moving</p>');
    assert.deepEqual(page.navigations, [`${ORIGIN}/landing`]);
  });

  it('waits for a redirect the page scheduled while loading', async () => {
    const page = await render('', `<p>moving shortly</p><script>setTimeout(() => location.replace('/later'), 900);</script>`);
    assert.deepEqual(page.navigations, [`${ORIGIN}/later`]);
  });

  it('does not wait for timers set after loading, nor for long ones', async () => {
    const page = await render('', `<p id="p">0</p><script>setTimeout(() => location.replace('/much-later'), 5000); onload = () => setTimeout(() => { setTimeout(() => location.replace('/after-load'), 400); }, 0);</script>`);
    assert.deepEqual(page.navigations, []);
  });

  it('reports the routes a script moved the page to through history', async () => {
    const page = await render('', `<p id="p">a</p><script>history.pushState({}, '', '/app/b#top'); history.replaceState({}, '', '/app/c'); document.getElementById('p').textContent = 'c';</script>`);
    assert.deepEqual(page.routes, [`${ORIGIN}/app/b`, `${ORIGIN}/app/c`]);
    assert.deepEqual(page.navigations, []);
    assert.match(page.html, /<p id="p">c<\/p>/);
  });
});
