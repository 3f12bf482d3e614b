import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FRAME_SCRIPT, LOCATION_SCRIPT, withLocationScript } from '../../shared/frameLocation.js';
import { localPathFromMessage } from '../../renderer/features/Viewer/frameLocation.js';

const TAG = `<script>${FRAME_SCRIPT}</script>`;
const insert = (html: string | Buffer) => Buffer.from(withLocationScript(Buffer.from(html))).toString('latin1');

describe('withLocationScript', () => {
  it("posts the frame's location to the parent, in the message the viewer reads", () => {
    const viewerBase = 'http://127.0.0.1:4001/v/';
    const href = `${viewerBase}job-1/www.uni.test/about/index.html?x=1#team`;
    const posted: { data: unknown; origin: string }[] = [];
    const parent = { postMessage: (data: unknown, origin: string) => posted.push({ data, origin }) };
    // Run as the page runs it, with the frame's own location and its parent window.
    new Function('parent', 'location', LOCATION_SCRIPT)(parent, { href });
    assert.equal(posted.length, 1);
    assert.equal(posted[0]!.origin, '*');
    assert.equal(localPathFromMessage(posted[0]!.data, viewerBase, 'job-1'), 'www.uni.test/about/index.html');
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
