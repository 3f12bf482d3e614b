import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WarcError } from '../../../electron/engine/warc/errors.js';
import { requestHead, responseHead } from '../../../electron/engine/warc/http.js';

describe('responseHead', () => {
  it('rebuilds the head in arrival order and spelling, every latin1 byte unchanged', () => {
    const head = responseHead('1.1', 200, 'OK', [
      ['content-type', 'text/plain'],
      ['X-Name', 'caf\u00e9 \u00ff'],
      ['Set-Cookie', 'a=1'],
      ['ETag', '"x"'],
      ['Set-Cookie', 'b=2'],
    ]);
    const expected = Buffer.concat([
      Buffer.from('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nX-Name: caf'),
      Buffer.from([0xe9, 0x20, 0xff]),
      Buffer.from('\r\nSet-Cookie: a=1\r\nETag: "x"\r\nSet-Cookie: b=2\r\n\r\n'),
    ]);
    assert.deepEqual(head, expected);
  });

  it('keeps the space after the status code when the reason phrase is empty', () => {
    assert.equal(responseHead('1.1', 204, '', []).toString('latin1'), 'HTTP/1.1 204 \r\n\r\n');
  });

  it('takes out the chunked coding the fetcher already removed, and keeps the header as sent in X-Crawler-Transfer-Encoding', () => {
    const head = responseHead('1.1', 200, 'OK', [
      ['Transfer-Encoding', 'chunked'],
      ['Content-Type', 'text/plain'],
      ['transfer-encoding', 'gzip, Chunked'],
    ]).toString('latin1');
    assert.equal(
      head,
      'HTTP/1.1 200 OK\r\nX-Crawler-Transfer-Encoding: chunked\r\nContent-Type: text/plain\r\n' +
        'transfer-encoding: gzip\r\nX-Crawler-Transfer-Encoding: gzip, Chunked\r\n\r\n',
    );
  });

  it('adds nothing when no chunked coding was removed', () => {
    const head = responseHead('1.1', 200, 'OK', [['Transfer-Encoding', 'gzip'], ['Content-Length', '3']]).toString('latin1');
    assert.equal(head, 'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nContent-Length: 3\r\n\r\n');
  });

  it('refuses a line break that would end the head early', () => {
    assert.throws(() => responseHead('1.1', 200, 'OK\r\nX: y', []), WarcError);
    assert.throws(() => responseHead('1.1', 200, 'OK', [['X', 'a\nb']]), WarcError);
    assert.throws(() => responseHead('1.1', 200, 'OK', [['X: y', 'a']]), WarcError);
  });
});

describe('requestHead', () => {
  it('writes the request line and the headers as sent', () => {
    assert.equal(
      requestHead('GET', '/a?b=1', '1.1', [['host', 'lib.test'], ['connection', 'keep-alive']]).toString('latin1'),
      'GET /a?b=1 HTTP/1.1\r\nhost: lib.test\r\nconnection: keep-alive\r\n\r\n',
    );
  });
});
