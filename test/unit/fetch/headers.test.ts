import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { foldHeaders, parseRequestHead, rawHeaderPairs } from '../../../electron/engine/fetch/headers.js';

describe('rawHeaderPairs', () => {
  it('pairs a raw list in order, keeping case and bytes', () => {
    const raw = [Buffer.from('Content-Type'), Buffer.from('text/html'), Buffer.from('X-Name'), Buffer.from([0xe9])];
    assert.deepEqual(rawHeaderPairs(raw), [
      ['Content-Type', 'text/html'],
      ['X-Name', '\u00e9'],
    ]);
  });

  it('spreads a parsed header object', () => {
    assert.deepEqual(rawHeaderPairs({ 'set-cookie': ['a=1', 'b=2'], etag: '"x"' }), [
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=2'],
      ['etag', '"x"'],
    ]);
  });
});

describe('foldHeaders', () => {
  it('lowercases names and joins repeats with a comma, Set-Cookie with a newline', () => {
    const folded = foldHeaders([
      ['Vary', 'Accept'],
      ['vary', 'Cookie'],
      ['Set-Cookie', 'a=1; Expires=Wed, 21 Oct 2015 07:28:00 GMT'],
      ['Set-Cookie', 'b=2'],
    ]);
    assert.deepEqual(folded, {
      vary: 'Accept, Cookie',
      'set-cookie': 'a=1; Expires=Wed, 21 Oct 2015 07:28:00 GMT\nb=2',
    });
  });
});

describe('parseRequestHead', () => {
  it('reads the header lines after the request line', () => {
    const head = 'GET /a?b HTTP/1.1\r\nhost: example.org\r\nconnection: keep-alive\r\nUser-Agent: X: y\r\n';
    assert.deepEqual(parseRequestHead(head), [
      ['host', 'example.org'],
      ['connection', 'keep-alive'],
      ['User-Agent', 'X: y'],
    ]);
  });
});
