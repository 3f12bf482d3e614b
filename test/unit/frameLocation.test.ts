import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { archiveBase, locationToken, viewerScript, withViewerScript } from '../../shared/frameLocation.js';

const TAG = `<script>${viewerScript(null)}</script>`;
const insert = (html: string | Buffer) => Buffer.from(withViewerScript(Buffer.from(html), null)).toString('latin1');
const withLocationScript = (html: Buffer) => withViewerScript(html, null);

describe('viewer script', () => {
  it("tells the app window it loaded, with its document's token and nothing the page could forge", () => {
    assert.match(viewerScript('tok_1-2'), /top\.postMessage\(\{type:'harvest:location',token:'tok_1-2'\},'\*'\)/);
    assert.match(viewerScript(null), /top\.postMessage\(\{type:'harvest:location'\},'\*'\)/);
    assert.doesNotMatch(viewerScript(null), /type:'harvest:location'[^}]*href/);
    assert.match(viewerScript(null), /harvest:missing/);
    assert.match(viewerScript(null), /delete window\[n\]/);
    assert.match(viewerScript(null), /'RTCPeerConnection','webkitRTCPeerConnection'/);
  });

  it("carries the response's CSP nonce when the page's own scripts are off", () => {
    const out = Buffer.from(withViewerScript(Buffer.from('<html><head><script>page()</script>'), null, 'n0nce')).toString('latin1');
    assert.equal(out, `<html><head><script nonce="n0nce">${viewerScript(null)}</script><script>page()</script>`);
  });

  it('run as a page runs it: removes itself and WebRTC, then posts its token to the top window', () => {
    const posted: { data: unknown; origin: string }[] = [];
    const top = { postMessage: (data: unknown, origin: string) => posted.push({ data, origin }) };
    let removed = false;
    const document = { currentScript: { remove: () => (removed = true) }, addEventListener: () => {} };
    const listening: string[] = [];
    const window: Record<string, unknown> = {
      RTCPeerConnection: class {},
      webkitRTCPeerConnection: class {},
      // The search highlighter listens for the app's words before the page reports where it is.
      addEventListener: (type: string) => listening.push(`${type}:${posted.length}`),
    };
    new Function('top', 'document', 'window', viewerScript('tok_1'))(top, document, window);
    assert.deepEqual(posted, [{ data: { type: 'harvest:location', token: 'tok_1' }, origin: '*' }]);
    assert.deepEqual(listening, ['message:0']);
    assert.equal(locationToken(posted[0]!.data), 'tok_1');
    assert.ok(removed);
    assert.equal('RTCPeerConnection' in window, false);
    assert.equal('webkitRTCPeerConnection' in window, false);
  });

  it('reads the token of a location message, and nothing else', () => {
    assert.equal(locationToken({ type: 'harvest:location', token: 'abc_-9' }), 'abc_-9');
    assert.equal(locationToken({ type: 'harvest:location' }), '');
    assert.equal(locationToken({ type: 'harvest:location', token: "x'+alert(1)+'" }), '');
    assert.equal(locationToken({ type: 'other', token: 'abc' }), null);
    assert.equal(locationToken('harvest:location'), null);
  });

  it("fills a job's id into the viewer base: one origin per job", () => {
    assert.equal(archiveBase('harvest-archive://{job}/', 'J1'), 'harvest-archive://J1/');
    assert.equal(archiveBase('http://{job}.localhost:81/t0k/', 'j1'), 'http://j1.localhost:81/t0k/');
    assert.equal(archiveBase('http://127.0.0.1:81/v/', 'j 1'), 'http://127.0.0.1:81/v/j%201/');
  });

  it('goes right after <head>, whatever its case or attributes', () => {
    assert.equal(insert('<!DOCTYPE html><html><head><title>t</title>'), `<!DOCTYPE html><html><head>${TAG}<title>t</title>`);
    assert.equal(insert('<HTML><HEAD lang="en">x'), `<HTML><HEAD lang="en">${TAG}x`);
  });

  it('is not fooled by <header>', () => {
    assert.equal(insert('<!doctype html><body><header>h</header>'), `<!doctype html>${TAG}<body><header>h</header>`);
  });

  it('goes after the doctype when there is no head, so the page keeps standards mode', () => {
    assert.equal(insert('\n<!doctype html>\n<p>hi'), `\n<!doctype html>${TAG}\n<p>hi`);
  });

  it('goes at the start of a fragment', () => {
    assert.equal(insert('<p>hi</p>'), `${TAG}<p>hi</p>`);
    assert.equal(insert(''), TAG);
  });

  it('keeps a UTF-8 BOM first', () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const out = Buffer.from(withLocationScript(Buffer.concat([bom, Buffer.from('<p>é</p>')])));
    assert.deepEqual(out, Buffer.concat([bom, Buffer.from(`${TAG}<p>é</p>`)]));
  });

  it('leaves the other bytes untouched, multi-byte text before the head included', () => {
    const page = Buffer.from('<!-- ünïcödé € --><head><meta charset="utf-8"></head><body>日本</body>');
    const out = Buffer.from(withLocationScript(page));
    assert.equal(out.toString('utf8'), page.toString('utf8').replace('<head>', `<head>${TAG}`));
  });
});
