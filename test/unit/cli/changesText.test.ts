import assert from 'node:assert/strict';
import { describe as suite, it } from 'node:test';
import { describe } from '../../../electron/cli/changes.js';

suite('harvest changes text', () => {
  const counts = { new: 5, restored: 0, changed: 1, markupOnly: 0, unchanged: 3, notModified: 0, removed: 0, httpErrors: 0, failed: 0 };
  it('says when --limit cut a list, and by how many', () => {
    const text = describe({ capture: 2, previous: 1, counts, new: ['http://a.test/1', 'http://a.test/2'], restored: [], changed: ['http://a.test/c'], markupOnly: [], removed: [] });
    assert.match(text, /^new:\n {2}http:\/\/a\.test\/1\n {2}http:\/\/a\.test\/2\n {2}… and 3 more \(the list is cut at --limit\)$/m);
    assert.doesNotMatch(text.split('changed:')[1] ?? '', /more/);
  });
});
