import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { robotsPolicyFrom } from '../../../electron/engine/politeness/robots.js';

const url = 'http://site.test/robots.txt';

describe('robotsPolicyFrom (RFC 9309)', () => {
  it('obeys Disallow for our user agent and the wildcard group', () => {
    const body = 'User-agent: *\nDisallow: /private/\n\nUser-agent: Harvest\nDisallow: /no-harvest/\nCrawl-delay: 2\n';
    const p = robotsPolicyFrom({ http_status: 200, body, error: null }, url, 'Harvest');
    assert.equal(p.isAllowed('http://site.test/no-harvest/x'), false);
    assert.equal(p.isAllowed('http://site.test/private/x'), true, 'a specific group replaces the wildcard one');
    assert.equal(p.isAllowed('http://site.test/about/'), true);
    assert.equal(p.crawlDelayMs, 2000);
  });

  it('falls back to the wildcard group', () => {
    const p = robotsPolicyFrom({ http_status: 200, body: 'User-agent: *\nDisallow: /private/\n', error: null }, url, 'Harvest');
    assert.equal(p.isAllowed('http://site.test/private/a.html'), false);
    assert.equal(p.crawlDelayMs, 0);
  });

  it('treats 4xx as no restrictions and 5xx or unreachable as complete disallow', () => {
    assert.equal(robotsPolicyFrom({ http_status: 404, body: '', error: null }, url, 'Harvest').isAllowed('http://site.test/x'), true);
    assert.equal(robotsPolicyFrom({ http_status: 503, body: '', error: null }, url, 'Harvest').isAllowed('http://site.test/x'), false);
    assert.equal(robotsPolicyFrom({ http_status: null, body: null, error: 'ECONNREFUSED' }, url, 'Harvest').isAllowed('http://site.test/x'), false);
  });

  it('caps an absurd Crawl-delay', () => {
    const p = robotsPolicyFrom({ http_status: 200, body: 'User-agent: *\nCrawl-delay: 86400\n', error: null }, url, 'Harvest');
    assert.equal(p.crawlDelayMs, 60_000);
  });
});
