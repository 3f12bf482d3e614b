import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { Fetcher } from '../../../electron/engine/fetch/fetcher.js';
import { exchangeFromFetch } from '../../../electron/engine/warc/exchange.js';
import { WarcWriter } from '../../../electron/engine/warc/writer.js';
import { fetcherOptions, startRawServer, type TestServer } from '../fetch/fixtures.js';
import { tempDir, warcFiles } from './fixtures.js';
import { assertTilesFile, headOf, payloadOf, readHttp, readRaw, sha256Base32, type RawRecord } from '../../helpers/warcReadBack.js';

const HTML = '<!doctype html><title>Caf\u00e9</title><p>Fetched over the wire.</p>';

/** The server's head, byte for byte: a latin1 header value, and chunked framing around a gzip body. */
const HEAD_LINES = [
  'HTTP/1.1 200 OK',
  'Content-Type: text/html; charset=utf-8',
  'Content-Encoding: gzip',
  'X-Place: caf\u00e9',
  'Transfer-Encoding: chunked',
];

describe('a real fetch written to WARC', () => {
  let server: TestServer;
  let dir: string;
  let raw: RawRecord[];
  let file: string;
  const gzipped = gzipSync(HTML);

  before(async () => {
    server = await startRawServer((socket) => {
      const half = Math.floor(gzipped.length / 2);
      const chunk = (b: Buffer): Buffer =>
        Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')]);
      socket.end(
        Buffer.concat([
          Buffer.from(`${HEAD_LINES.join('\r\n')}\r\n\r\n`, 'latin1'),
          chunk(gzipped.subarray(0, half)),
          chunk(gzipped.subarray(half)),
          Buffer.from('0\r\n\r\n'),
        ]),
      );
    });
    const fetcher = new Fetcher(fetcherOptions());
    dir = tempDir();
    const w = await WarcWriter.open({ dir, prefix: 'wire', software: 'Harvest' });
    try {
      const res = await fetcher.fetch(`${server.url}/page?q=1`);
      await w.writeExchange(exchangeFromFetch(res));
    } finally {
      await fetcher.close();
      await w.close();
    }
    file = path.join(dir, warcFiles(dir)[0]!);
    raw = await readRaw(file);
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores the head as the server sent it, the chunked coding moved to X-Crawler-Transfer-Encoding, and the gzip payload unframed', () => {
    assertTilesFile(raw, file);
    const response = raw[1]!;
    assert.equal(response.header('WARC-Target-URI'), `${server.url}/page?q=1`);
    assert.equal(response.header('WARC-IP-Address'), '127.0.0.1');
    const expectedHead = Buffer.from(`${[...HEAD_LINES.slice(0, -1), 'X-Crawler-Transfer-Encoding: chunked'].join('\r\n')}\r\n\r\n`, 'latin1');
    assert.deepEqual(headOf(response.block), expectedHead);
    assert.deepEqual(payloadOf(response.block), gzipped);
    assert.equal(response.header('WARC-Payload-Digest'), sha256Base32(gzipped));
  });

  it('stores the request head undici wrote, linked to the response', () => {
    const request = raw[2]!;
    assert.equal(request.header('WARC-Concurrent-To'), raw[1]!.header('WARC-Record-ID'));
    const head = request.block.toString('latin1');
    assert.match(head, /^GET \/page\?q=1 HTTP\/1\.1\r\n/);
    assert.match(head, /\r\nhost: 127\.0\.0\.1:\d+\r\n/);
    assert.match(head, /\r\nUser-Agent: HarvestTest\/1\.0 \(\+http:\/\/example\.invalid\/\)\r\n/);
    assert.match(head, /\r\nAccept-Encoding: gzip, deflate, br\r\n/);
    assert.ok(head.endsWith('\r\n\r\n'));
  });

  it('replays through warcio as the page the server sent', async () => {
    const http = await readHttp(file);
    assert.equal(http[1]!.statusline, 'HTTP/1.1 200 OK');
    assert.equal(http[1]!.content.toString('utf8'), HTML);
  });
});
