import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { robotsPolicyFrom } from '../../../electron/engine/politeness/robots.js';

const allowed = (status: number): boolean =>
  robotsPolicyFrom({ http_status: status, body: 'User-agent: *\nAllow: /\n', error: null }, 'http://site.test/robots.txt', 'Harvest').isAllowed(
    'http://site.test/page',
  );

describe('robots.txt answered with a server error (RFC 9309 2.3.1.4)', () => {
  it('keeps out from exactly 500 through 599', () => {
    assert.equal(allowed(500), false);
    assert.equal(allowed(501), false);
    assert.equal(allowed(599), false);
  });

  it('lets in at 499, the last client error', () => {
    assert.equal(allowed(499), true);
    assert.equal(allowed(400), true);
  });
});
