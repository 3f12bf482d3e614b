import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { BrowserPool } from '../../../electron/engine/render/browserPool.js';
import { RENDERER_BASE_MB } from '../../../electron/engine/render/rendererMemory.js';
import { PageMemoryError, type BrokerAnswer, type RenderTarget } from '../../../electron/engine/render/types.js';

const CHROMIUM = '/usr/bin/chromium';
const ORIGIN = 'http://page.test.invalid';
const HEAP_MB = 64;

function html(body: string) {
  return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: Buffer.from(`<!DOCTYPE html><html><head><title>t</title></head><body>${body}</body></html>`) };
}

const ok: BrokerAnswer = { response: { status: 200, headers: { 'content-type': 'text/plain' }, body: Buffer.from('ok') } };

/** A render whose broker records the paths asked; `/hold` is answered only when the render ends. */
function target(path: string, body: string, asked: string[]): RenderTarget {
  return {
    url: `${ORIGIN}${path}`,
    response: html(body),
    signal: new AbortController().signal,
    broker: {
      answer: (req, signal) => {
        const p = new URL(req.url).pathname;
        asked.push(p);
        if (p !== '/hold') return Promise.resolve(ok);
        return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ refused: 'render ended' }), { once: true }));
      },
    },
  };
}

describe('a rendered page stays in its page', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed` }, () => {
  // One page: the next render reuses the slot, where a popup that outlived its page would land.
  const pool = new BrowserPool({ executablePath: CHROMIUM, pages: 1, maxPageHeapMb: HEAP_MB, pageTimeoutMs: 30_000, settleMs: 20_000, screenshots: false });
  after(() => pool.close());

  it('opens no popup that lives on, and no popup request reaches a page’s broker', async () => {
    const asked: string[] = [];
    const page = await pool.render(
      target(
        '/opener',
        `<a id="l" href="/popup-link" target="_blank">link</a><form id="f" action="/popup-form" target="_blank"></form><p id="opened">?</p>
        <script>
          const w = window.open('/popup-open');
          document.getElementById('opened').textContent = w === null ? 'no window' : 'a window';
          document.getElementById('l').click();
          document.getElementById('f').submit();
          fetch('/own.json');
        </script>`,
        asked,
      ),
    );
    assert.match(page.html, /<p id="opened">no window<\/p>/, 'window.open opens nothing');
    const next: string[] = [];
    await pool.render(target('/next', '<img src="/next.png" alt="">', next));
    assert.deepEqual(new Set(asked), new Set(['/own.json']), 'the opener’s broker saw only its own request');
    assert.deepEqual(new Set(next), new Set(['/next.png']), 'the next page’s broker saw only its own request');
    const browser = (await pool.current())!;
    const pages = () => browser.contexts().flatMap((c) => c.pages()).length;
    for (let i = 0; i < 100 && pages() > 1; i++) await sleep(100);
    assert.equal(pages(), 1, 'the popups the link and the form opened were closed');
  });

  it('stops a page whose renderer outgrows its memory cap, records why, tries it once, and renders the next', async () => {
    const asked: string[] = [];
    // Typed arrays live outside the V8 heap: the heap cap alone does not stop this. It stops at 1 GB,
    // so that without the memory watch the page renders (and the test fails) without filling the machine.
    const hog = `<script>fetch('/started'); fetch('/hold'); const keep = []; setInterval(() => { if (keep.length < 32) keep.push(new Uint8Array(32e6).fill(1)); }, 5);</script>`;
    const cap = HEAP_MB + RENDERER_BASE_MB;
    await assert.rejects(
      pool.render(target('/hog', hog, asked)),
      (e: unknown) => e instanceof PageMemoryError && new RegExp(`^out of memory: the page's renderer process reached \\d+ MB, over the ${cap} MB cap`).test(e.message),
    );
    assert.equal(asked.filter((p) => p === '/started').length, 1, 'not tried again');
    const after: string[] = [];
    const page = await pool.render(target('/after', '<p>after</p>', after));
    assert.match(page.html, /<p>after<\/p>/);
  });
});
