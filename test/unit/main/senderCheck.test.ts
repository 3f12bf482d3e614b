import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isTrustedSender, type SenderFacts } from '../../../electron/main/senderCheck.js';

const app: SenderFacts = { frameUrl: 'harvest-app://app/index.html', isTopFrame: true, senderId: 3, appWindowId: 3 };

describe('IPC sender check', () => {
  it("trusts the app window's top frame on the app origin", () => {
    assert.equal(isTrustedSender(app), true);
    assert.equal(isTrustedSender({ ...app, frameUrl: 'harvest-app://app/#/jobs/1' }), true);
  });

  it('refuses archived pages, other origins and lookalikes', () => {
    for (const frameUrl of [
      'harvest-archive://0f7c/index.html',
      'https://app/index.html',
      'file:///index.html',
      'harvest-app://app.evil/index.html',
      'harvest-app://user:pw@app/index.html',
      'harvest-app://other/index.html',
      'not a url',
      undefined,
    ]) {
      assert.equal(isTrustedSender({ ...app, frameUrl }), false, String(frameUrl));
    }
  });

  it('refuses sub-frames, other windows, and everything before the window exists', () => {
    assert.equal(isTrustedSender({ ...app, isTopFrame: false }), false);
    assert.equal(isTrustedSender({ ...app, senderId: 4 }), false);
    assert.equal(isTrustedSender({ ...app, appWindowId: null }), false);
  });
});
