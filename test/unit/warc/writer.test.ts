import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { WarcError } from '../../../electron/engine/warc/errors.js';
import type { ExchangeLocation, WarcExchange } from '../../../electron/engine/warc/types.js';
import { WarcWriter } from '../../../electron/engine/warc/writer.js';
import { exchange, noise, tempDir, warcFiles } from './fixtures.js';
import { assertTilesFile, headOf, payloadOf, readHttp, readRaw, sha256Base32, type RawRecord } from '../../helpers/warcReadBack.js';

const HTML = '<!doctype html><title>Home</title><p>Welcome to the library.</p>';

describe('WarcWriter: one file read back with warcio', () => {
  let dir: string;
  let file: string;
  let raw: RawRecord[];
  const given: { x: WarcExchange; loc: ExchangeLocation }[] = [];

  const home = exchange('http://lib.test/', {
    responseHeaders: [
      ['Content-Type', 'text/html; charset=utf-8'],
      ['Content-Encoding', 'gzip'],
      ['Set-Cookie', 'a=1; Path=/'],
      ['Vary', 'Accept-Encoding'],
      ['Set-Cookie', 'b=2; Path=/'],
    ],
    payload: gzipSync(HTML),
  });
  const moved = exchange('http://lib.test/old', {
    status: 301,
    statusText: 'Moved Permanently',
    // Latin-1 bytes as the fetcher reads them: 'é' is the single byte 0xE9 on the wire.
    responseHeaders: [
      ['Location', '/caf\u00e9'],
      ['Content-Length', '0'],
    ],
    payload: Buffer.alloc(0),
    ip: null,
  });
  const missing = exchange('http://lib.test/missing', {
    status: 404,
    statusText: 'Not Found',
    payload: Buffer.from('<h1>Not here</h1>'),
  });
  const copy = exchange('http://lib.test/index.html', {
    date: new Date('2024-05-01T12:40:00Z'),
    responseHeaders: home.responseHeaders,
    payload: gzipSync(HTML),
  });
  const chunked = exchange('http://lib.test/feed', {
    responseHeaders: [
      ['Content-Type', 'application/rss+xml'],
      ['Transfer-Encoding', 'chunked'],
    ],
    payload: Buffer.from('<rss/>'),
  });
  const noContent = exchange('http://lib.test/ping', { status: 204, statusText: 'No Content', payload: Buffer.alloc(0) });

  before(async () => {
    dir = tempDir();
    const w = await WarcWriter.open({ dir, prefix: 'harvest', software: 'Harvest/0.1.0', info: { operator: 'Test Library' } });
    for (const x of [home, moved, missing, copy, chunked, noContent]) given.push({ x, loc: await w.writeExchange(x) });
    await w.close();
    const files = warcFiles(dir);
    assert.equal(files.length, 1);
    file = path.join(dir, files[0]!);
    raw = await readRaw(file);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('names the finished file <prefix>-<17-digit timestamp>-<serial>.warc.gz and leaves no .open file', () => {
    assert.match(path.basename(file), /^harvest-\d{17}-00000\.warc\.gz$/);
    assert.deepEqual(warcFiles(dir), [path.basename(file)]);
  });

  it('holds every record, in order, tiling the whole file', () => {
    assertTilesFile(raw, file);
    assert.deepEqual(
      raw.map((r) => r.type),
      ['warcinfo', ...['response', 'response', 'response', 'revisit', 'response', 'response'].flatMap((t) => [t, 'request'])],
    );
  });

  it('starts with a warcinfo record that every other record names', () => {
    const info = raw[0]!;
    assert.equal(info.header('WARC-Filename'), path.basename(file));
    assert.equal(info.header('Content-Type'), 'application/warc-fields');
    const text = info.block.toString('utf8');
    assert.match(text, /^format: WARC File Format 1\.1\r\n/);
    assert.match(text, /\r\nsoftware: Harvest\/0\.1\.0\r\noperator: Test Library\r\n$/);
    const id = info.header('WARC-Record-ID');
    assert.match(id ?? '', /^<urn:uuid:[0-9a-f-]{36}>$/);
    for (const r of raw.slice(1)) assert.equal(r.header('WARC-Warcinfo-ID'), id);
  });

  it('gives each record a unique id, the WARC/1.1 date of its request and a block digest that matches', () => {
    const ids = raw.map((r) => r.header('WARC-Record-ID'));
    assert.equal(new Set(ids).size, ids.length);
    for (const r of raw) {
      assert.equal(r.header('WARC-Block-Digest'), sha256Base32(r.block), `${r.type} block digest`);
      assert.equal(Number(r.header('Content-Length')), r.block.length);
    }
    assert.equal(raw[1]!.header('WARC-Date'), '2024-05-01T12:34:56Z');
    assert.equal(raw[7]!.header('WARC-Date'), '2024-05-01T12:40:00Z');
  });

  it('stores each response head as received and the payload byte for byte, with its digest', () => {
    const responses = raw.filter((r) => r.type === 'response');
    const sent = given.filter((g) => g.loc.revisitOf === undefined);
    assert.equal(responses.length, sent.length);
    for (const [i, r] of responses.entries()) {
      const { x } = sent[i]!;
      assert.equal(r.header('WARC-Target-URI'), x.url);
      assert.equal(r.header('Content-Type'), 'application/http; msgtype=response');
      assert.deepEqual(payloadOf(r.block), x.payload, `${x.url} payload`);
      assert.equal(r.header('WARC-Payload-Digest'), sha256Base32(x.payload));
      assert.equal(sent[i]!.loc.payloadDigest, sha256Base32(x.payload));
    }
    const head = 'HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Encoding: gzip\r\n' +
      'Set-Cookie: a=1; Path=/\r\nVary: Accept-Encoding\r\nSet-Cookie: b=2; Path=/\r\n\r\n';
    assert.deepEqual(headOf(responses[0]!.block), Buffer.from(head, 'latin1'));
    const redirectHead = Buffer.from('HTTP/1.1 301 Moved Permanently\r\nLocation: /caf\u00e9\r\nContent-Length: 0\r\n\r\n', 'latin1');
    assert.deepEqual(headOf(responses[1]!.block), redirectHead);
    assert.ok(redirectHead.includes(Buffer.from([0x2f, 0x63, 0x61, 0x66, 0xe9, 0x0d])), 'one byte 0xE9, not UTF-8');
  });

  it('drops only the chunked coding from a de-chunked response head, saying so in X-Crawler-Transfer-Encoding', () => {
    const feed = raw.find((r) => r.header('WARC-Target-URI') === 'http://lib.test/feed' && r.type === 'response')!;
    assert.equal(
      headOf(feed.block).toString('latin1'),
      'HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml\r\nX-Crawler-Transfer-Encoding: chunked\r\n\r\n',
    );
    assert.equal(payloadOf(feed.block).toString(), '<rss/>');
  });

  it('writes WARC-IP-Address only when the address is known', () => {
    assert.equal(raw[1]!.header('WARC-IP-Address'), '127.0.0.1');
    assert.equal(raw[3]!.header('WARC-IP-Address'), null);
    assert.equal(raw[4]!.header('WARC-IP-Address'), null);
  });

  it('links each request to its response with WARC-Concurrent-To and stores the request as sent', () => {
    for (let i = 1; i < raw.length; i += 2) {
      const response = raw[i]!;
      const request = raw[i + 1]!;
      assert.equal(request.header('WARC-Concurrent-To'), response.header('WARC-Record-ID'));
      assert.equal(request.header('WARC-Target-URI'), response.header('WARC-Target-URI'));
      assert.equal(request.header('Content-Type'), 'application/http; msgtype=request');
      assert.equal(request.header('WARC-Payload-Digest'), sha256Base32(Buffer.alloc(0)));
    }
    const { x } = given[0]!;
    assert.equal(raw[2]!.block.toString('latin1'), 'GET / HTTP/1.1\r\nhost: lib.test\r\nUser-Agent: Harvest/0.1\r\n\r\n');
    assert.equal(x.path, '/');
  });

  it('writes a revisit for a payload already archived, pointing at the first capture', () => {
    const first = given[0]!.loc;
    const again = given[3]!.loc;
    const place = { file: first.file, offset: first.offset, length: first.length };
    assert.deepEqual(again.revisitOf, { url: home.url, date: home.date, recordId: first.recordId, place });
    assert.equal(again.payloadDigest, first.payloadDigest);
    const revisit = raw[7]!;
    assert.equal(revisit.header('WARC-Profile'), 'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest');
    assert.equal(revisit.header('WARC-Refers-To'), first.recordId);
    assert.equal(revisit.header('WARC-Refers-To-Target-URI'), home.url);
    assert.equal(revisit.header('WARC-Refers-To-Date'), '2024-05-01T12:34:56Z');
    assert.equal(revisit.header('WARC-Payload-Digest'), sha256Base32(copy.payload));
    assert.equal(revisit.header('Content-Type'), 'application/http; msgtype=response');
    assert.equal(payloadOf(revisit.block).length, 0, 'the head alone');
  });

  it('never turns an empty payload into a revisit', () => {
    assert.equal(given[1]!.loc.revisitOf, undefined);
    assert.equal(given[5]!.loc.revisitOf, undefined);
  });

  it('returns where each response record lies, as warcio finds it', () => {
    for (const { loc } of given) {
      assert.equal(loc.file, path.basename(file));
      const r = raw.find((rec) => rec.header('WARC-Record-ID') === loc.recordId)!;
      assert.deepEqual([loc.offset, loc.length], [r.offset, r.length]);
    }
  });

  it('reads back through warcio as a replay tool would: status lines, headers, decoded payload', async () => {
    const http = await readHttp(file);
    const home200 = http[1]!;
    assert.equal(home200.statusline, 'HTTP/1.1 200 OK');
    assert.equal(home200.content.toString(), HTML, 'gzip payload decoded by warcio');
    assert.deepEqual(
      home200.httpHeaders.filter(([n]) => n === 'Set-Cookie').map(([, v]) => v),
      ['a=1; Path=/', 'b=2; Path=/'],
    );
    assert.equal(http[3]!.statusline, 'HTTP/1.1 301 Moved Permanently');
    assert.equal(http[3]!.content.length, 0);
    assert.equal(http[5]!.statusline, 'HTTP/1.1 404 Not Found');
    assert.equal(http[5]!.content.toString(), '<h1>Not here</h1>');
    assert.equal(http[7]!.type, 'revisit');
    assert.equal(http[7]!.statusline, 'HTTP/1.1 200 OK');
    assert.equal(http[8]!.statusline, 'GET /index.html HTTP/1.1');
  });
});

describe('WarcWriter: metadata, lookups, concurrency, refusals', () => {
  let dir: string;
  before(() => {
    dir = tempDir();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('writes outlinks as a metadata record concurrent to the response', async () => {
    const sub = path.join(dir, 'meta');
    const w = await WarcWriter.open({ dir: sub, prefix: 'm', software: 'Harvest' });
    const page = await w.writeExchange(exchange('http://lib.test/'));
    const meta = await w.writeMetadata({
      url: 'http://lib.test/',
      date: new Date('2024-05-01T12:35:00Z'),
      concurrentTo: page.recordId,
      outlinks: [
        { url: 'http://lib.test/about', kind: 'L a/@href' },
        { url: 'http://lib.test/logo.png', kind: 'E img/@src' },
      ],
    });
    await w.close();
    const file = path.join(sub, warcFiles(sub)[0]!);
    const raw = await readRaw(file);
    assertTilesFile(raw, file);
    const record = raw[3]!;
    assert.equal(record.type, 'metadata');
    assert.deepEqual([meta.offset, meta.length, meta.recordId], [record.offset, record.length, record.header('WARC-Record-ID')]);
    assert.equal(record.header('WARC-Concurrent-To'), page.recordId);
    assert.equal(record.header('WARC-Target-URI'), 'http://lib.test/');
    assert.equal(record.header('WARC-Date'), '2024-05-01T12:35:00Z');
    assert.equal(record.header('Content-Type'), 'application/warc-fields');
    assert.equal(record.header('WARC-Block-Digest'), sha256Base32(record.block));
    assert.equal(
      record.block.toString('utf8'),
      'outlink: http://lib.test/about L a/@href\r\noutlink: http://lib.test/logo.png E img/@src\r\n',
    );
  });

  it('asks seenDigest about payloads it has not written itself, and writes a revisit on a hit', async () => {
    const sub = path.join(dir, 'lookup');
    const known = exchange('http://lib.test/known');
    const asked: string[] = [];
    const w = await WarcWriter.open({
      dir: sub,
      prefix: 'l',
      software: 'Harvest',
      seenDigest: (digest) => {
        asked.push(digest);
        return digest === sha256Base32(known.payload) ? { url: 'http://lib.test/earlier', date: new Date('2023-01-02T03:04:05Z') } : null;
      },
    });
    const hit = await w.writeExchange(known);
    const miss = await w.writeExchange(exchange('http://lib.test/new'));
    const again = await w.writeExchange(exchange('http://lib.test/new2', { payload: Buffer.from('<p>http://lib.test/new</p>') }));
    await w.close();
    assert.deepEqual(hit.revisitOf, { url: 'http://lib.test/earlier', date: new Date('2023-01-02T03:04:05Z') });
    assert.equal(miss.revisitOf, undefined);
    assert.equal(again.revisitOf?.recordId, miss.recordId, 'its own memory answers first');
    assert.equal(asked.length, 2);
    const raw = await readRaw(path.join(sub, warcFiles(sub)[0]!));
    assert.equal(raw[1]!.type, 'revisit');
    assert.equal(raw[1]!.header('WARC-Refers-To'), null);
    assert.equal(raw[1]!.header('WARC-Refers-To-Target-URI'), 'http://lib.test/earlier');
    assert.equal(raw[1]!.header('WARC-Refers-To-Date'), '2023-01-02T03:04:05Z');
  });

  it('keeps concurrent callers from interleaving: each response is followed by its own request', async () => {
    const sub = path.join(dir, 'concurrent');
    const w = await WarcWriter.open({ dir: sub, prefix: 'c', software: 'Harvest' });
    const xs = Array.from({ length: 24 }, (_, i) =>
      exchange(`http://lib.test/page/${i}`, { payload: noise(`page ${i}`, 1000 + i * 4000) }),
    );
    const locs = await Promise.all(xs.map((x) => w.writeExchange(x)));
    await w.close();
    const file = path.join(sub, warcFiles(sub)[0]!);
    const raw = await readRaw(file);
    assertTilesFile(raw, file);
    assert.equal(raw.length, 1 + 2 * xs.length);
    for (let i = 1; i < raw.length; i += 2) {
      assert.equal(raw[i]!.type, 'response');
      assert.equal(raw[i + 1]!.header('WARC-Concurrent-To'), raw[i]!.header('WARC-Record-ID'));
      const x = xs.find((e) => e.url === raw[i]!.header('WARC-Target-URI'))!;
      assert.deepEqual(payloadOf(raw[i]!.block), x.payload);
    }
    assert.deepEqual(
      locs.map((l) => l.offset),
      [...locs.map((l) => l.offset)].sort((a, b) => a - b),
      'written in call order',
    );
  });

  it('refuses a header value with a line break, and goes on writing after it', async () => {
    const sub = path.join(dir, 'invalid');
    const w = await WarcWriter.open({ dir: sub, prefix: 'i', software: 'Harvest' });
    const bad = exchange('http://lib.test/bad', { responseHeaders: [['X-Evil', 'a\r\nWARC-Type: forged']] });
    await assert.rejects(w.writeExchange(bad), (e: unknown) => e instanceof WarcError && e.code === 'invalid');
    await w.writeExchange(exchange('http://lib.test/good'));
    await w.close();
    const file = path.join(sub, warcFiles(sub)[0]!);
    const raw = await readRaw(file);
    assertTilesFile(raw, file);
    assert.deepEqual(raw.map((r) => r.type), ['warcinfo', 'response', 'request']);
  });

  it('refuses writes once closed, and a second close is harmless', async () => {
    const sub = path.join(dir, 'closed');
    const w = await WarcWriter.open({ dir: sub, prefix: 'x', software: 'Harvest' });
    await w.close();
    await w.close();
    await assert.rejects(w.writeExchange(exchange('http://lib.test/')), (e: unknown) => e instanceof WarcError && e.code === 'closed');
    assert.deepEqual(warcFiles(sub), [], 'no file for a writer that wrote nothing');
  });

  it('rejects a prefix that is not a plain file name and a warcinfo field with a line break', async () => {
    await assert.rejects(WarcWriter.open({ dir, prefix: '../up', software: 'Harvest' }), WarcError);
    await assert.rejects(WarcWriter.open({ dir, prefix: 'ok', software: 'Harvest\r\nx: y' }), WarcError);
  });
});

describe('WarcWriter: gzip members of compressed payloads', () => {
  let dir: string;
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('stores a content-encoded or compressed-format payload without deflating it again, and deflates the rest', async () => {
    dir = tempDir();
    // Highly compressible bytes, so a deflated member would be far smaller than its record.
    const body = Buffer.alloc(64 * 1024, 'a');
    const cases = [
      { url: 'http://lib.test/encoded', headers: [['Content-Type', 'text/html'], ['Content-Encoding', 'gzip']], stored: true },
      { url: 'http://lib.test/photo.jpg', headers: [['Content-Type', 'image/jpeg']], stored: true },
      { url: 'http://lib.test/page', headers: [['Content-Type', 'text/html; charset=utf-8']], stored: false },
      { url: 'http://lib.test/identity', headers: [['Content-Type', 'text/plain'], ['Content-Encoding', 'identity']], stored: false },
      { url: 'http://lib.test/logo.svg', headers: [['Content-Type', 'image/svg+xml']], stored: false },
    ] as const;
    const w = await WarcWriter.open({ dir, prefix: 'harvest', software: 'Harvest/0.1.0' });
    const locs: ExchangeLocation[] = [];
    // Each its own payload, so none becomes a revisit of another.
    for (const [i, c] of cases.entries()) {
      locs.push(await w.writeExchange(exchange(c.url, { responseHeaders: c.headers, payload: Buffer.concat([body, Buffer.from(String(i))]) })));
    }
    await w.close();
    const raw = await readRaw(path.join(dir, warcFiles(dir)[0]!));
    for (const [i, c] of cases.entries()) {
      const record = raw.find((r) => r.header('WARC-Record-ID') === locs[i]!.recordId)!;
      assert.deepEqual(payloadOf(record.block), Buffer.concat([body, Buffer.from(String(i))]), c.url);
      if (c.stored) assert.ok(locs[i]!.length > body.length, `${c.url}: stored, ${locs[i]!.length} bytes`);
      else assert.ok(locs[i]!.length < body.length / 10, `${c.url}: deflated, ${locs[i]!.length} bytes`);
    }
  });
});
