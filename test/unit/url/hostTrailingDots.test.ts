import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalize } from '../../../electron/engine/url/canonical.js';

describe('canonicalize: a host with trailing dots', () => {
  it('drops every trailing dot, not just one', () => {
    assert.equal(canonicalize('http://example.org../x'), 'http://example.org/x');
    assert.equal(canonicalize('http://EXAMPLE.org.../x?q=1#f'), 'http://example.org/x?q=1');
    assert.equal(canonicalize('https://example.org.:443/'), 'https://example.org/');
  });

  it('is idempotent on them', () => {
    for (const u of ['http://example.org../x', 'http://example.org./', 'http://a.b.c...:8080/p']) {
      const once = canonicalize(u)!;
      assert.equal(canonicalize(once), once, u);
    }
  });

  it('refuses a host made only of dots', () => {
    assert.equal(canonicalize('http://.../x'), null);
  });
});
