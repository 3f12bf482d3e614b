import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ViewerFrames } from '../../../electron/main/viewerFrames.js';

describe("the viewer frame's location in Electron", () => {
  it("records the frame's own navigations per job, decoded, and nothing else", () => {
    const frames = new ViewerFrames('harvest-archive');
    assert.equal(frames.locate('j1'), null);
    frames.navigated('harvest-archive://j1/site/a%20b.html?x=1#top');
    assert.equal(frames.locate('j1'), 'site/a b.html');
    frames.navigated('harvest-archive://j1/site/');
    assert.equal(frames.locate('J1'), 'site/index.html');
    frames.navigated('harvest-archive://j1/');
    assert.equal(frames.locate('j1'), 'index.html');
    for (const url of ['harvest-app://app/index.html', 'https://j1/evil.html', 'harvest-archive://j1/%E0%A4%A', 'not a url']) frames.navigated(url);
    assert.equal(frames.locate('j1'), 'index.html');
    frames.navigated('harvest-archive://j2/x.html');
    assert.equal(frames.locate('j1'), 'index.html');
    assert.equal(frames.locate('j2'), 'x.html');
  });
});
