import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { BrowserNotFoundError, findBrowser, usualBrowserPaths } from '../../../electron/engine/render/browserPath.js';

describe('findBrowser', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'harvest-browser-'));
  const exe = path.join(dir, 'chrome');
  writeFileSync(exe, '#!/bin/sh\n');
  chmodSync(exe, 0o755);
  const plain = path.join(dir, 'not-executable');
  writeFileSync(plain, '');
  chmodSync(plain, 0o644);
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('takes the path given, then HARVEST_CHROMIUM, then the first usual place that exists', () => {
    assert.equal(findBrowser(exe, {}, []), exe);
    assert.equal(findBrowser(null, { HARVEST_CHROMIUM: exe }, []), exe);
    assert.equal(findBrowser(null, {}, [path.join(dir, 'missing'), plain, exe]), exe);
  });

  it('never second-guesses a path it was given', () => {
    assert.throws(
      () => findBrowser(plain, { HARVEST_CHROMIUM: exe }, [exe]),
      (e: unknown) => e instanceof BrowserNotFoundError && e.tried.length === 1 && e.message.includes(plain),
    );
    assert.throws(() => findBrowser(null, { HARVEST_CHROMIUM: path.join(dir, 'gone') }, [exe]), /HARVEST_CHROMIUM .*gone.* is not an executable/);
  });

  it('names every place it looked when none holds a browser', () => {
    const usual = [path.join(dir, 'a'), path.join(dir, 'b')];
    assert.throws(
      () => findBrowser(null, {}, usual),
      (e: unknown) => e instanceof BrowserNotFoundError && e.message.includes(`tried: ${usual.join(', ')}`) && /--browser-path or HARVEST_CHROMIUM/.test(e.message),
    );
  });

  it('knows where each platform keeps its browsers', () => {
    assert.ok(usualBrowserPaths('linux', {}).includes('/usr/bin/chromium'));
    assert.ok(usualBrowserPaths('darwin', {}).some((p) => p.includes('Google Chrome.app')));
    const win = usualBrowserPaths('win32', { PROGRAMFILES: 'C:\\Program Files' });
    assert.ok(win.includes('C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe'));
    assert.ok(win.includes('C:\\Program Files\\Microsoft\\Edge\\Application\\msedge.exe'));
  });
});
