import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sealContents, type SealableContents } from '../../../electron/main/contentsPolicy.js';

describe('web contents policy', () => {
  it('keeps WebRTC off the network, and denies new windows and webviews, in every web contents', () => {
    const calls: string[] = [];
    let webviewListener: ((e: { preventDefault(): void }) => void) | undefined;
    let openHandler: (() => { action: string }) | undefined;
    const contents: SealableContents = {
      setWindowOpenHandler: (h) => void (openHandler = h),
      setWebRTCIPHandlingPolicy: (p) => void calls.push(p),
      on: (_event, listener) => void (webviewListener = listener),
    };
    sealContents(contents);
    assert.deepEqual(calls, ['disable_non_proxied_udp']);
    assert.deepEqual(openHandler?.(), { action: 'deny' });
    let prevented = false;
    webviewListener?.({ preventDefault: () => void (prevented = true) });
    assert.equal(prevented, true);
  });
});
