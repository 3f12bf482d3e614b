import assert from 'node:assert/strict';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { WarcError } from '../../../electron/engine/warc/errors.js';
import { readResponseHeaders, readResponsePayload } from '../../../electron/engine/warc/readResponse.js';
import { WarcWriter } from '../../../electron/engine/warc/writer.js';
import { exchange, tempDir, warcFiles } from './fixtures.js';

const PAGE = '<!doctype html><title>Reading room</title><a href="/hours">Hours</a>';

describe('readResponsePayload: a response payload read back from where the writer put it', () => {
  let dir: string;
  let writer: WarcWriter;

  beforeEach(async () => {
    dir = tempDir();
    writer = await WarcWriter.open({ dir, prefix: 'test', software: 'Harvest/test' });
  });

  afterEach(async () => {
    await writer.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  });

  it('returns the payload as received, from the file still being written', async () => {
    await writer.writeExchange(exchange('http://lib.test/before'));
    const payload = gzipSync(PAGE);
    const at = await writer.writeExchange(
      exchange('http://lib.test/', {
        responseHeaders: [
          ['Content-Type', 'text/html; charset=utf-8'],
          ['Content-Encoding', 'gzip'],
        ],
        payload,
      }),
    );
    assert.ok(warcFiles(dir)[0]!.endsWith('.open'), 'the file is still open');
    assert.deepEqual(await readResponsePayload(dir, at), payload);
  });

  it('finds the record under the finished name once the file is closed', async () => {
    const at = await writer.writeExchange(exchange('http://lib.test/', { payload: Buffer.from(PAGE) }));
    await writer.close();
    assert.ok(!warcFiles(dir)[0]!.endsWith('.open'));
    assert.equal((await readResponsePayload(dir, at)).toString(), PAGE);
  });

  it('reports a payload that no longer matches its digest as damaged', async () => {
    const at = await writer.writeExchange(exchange('http://lib.test/', { payload: Buffer.from(PAGE) }));
    await writer.close();
    const file = path.join(dir, at.file);
    // Rewrite the member with one payload byte changed: a valid gzip member whose digest is now wrong.
    const bytes = readFileSync(file);
    const record = gunzipSync(bytes.subarray(at.offset, at.offset + at.length));
    const i = record.indexOf('Reading room');
    record[i] = 'r'.charCodeAt(0);
    const member = gzipSync(record);
    writeFileSync(file, Buffer.concat([bytes.subarray(0, at.offset), member]));
    await assert.rejects(readResponsePayload(dir, { ...at, length: member.length }), (e: unknown) => {
      assert.ok(e instanceof WarcError);
      assert.equal(e.code, 'damaged');
      assert.match(e.message, /digest/);
      return true;
    });
  });

  it('reports a missing file, a short file and a place that is no gzip member as damaged', async () => {
    const at = await writer.writeExchange(exchange('http://lib.test/', { payload: Buffer.from(PAGE) }));
    await writer.close();
    const damaged = (e: unknown) => e instanceof WarcError && e.code === 'damaged';
    await assert.rejects(readResponsePayload(dir, { ...at, offset: at.offset + 1 }), damaged);
    await assert.rejects(readResponsePayload(dir, { ...at, length: at.length + 1_000_000 }), damaged);
    renameSync(path.join(dir, at.file), path.join(dir, 'elsewhere.warc.gz'));
    await assert.rejects(readResponsePayload(dir, at), damaged);
  });

  it('refuses a record that is not a response', async () => {
    const at = await writer.writeExchange(exchange('http://lib.test/', { payload: Buffer.from(PAGE) }));
    const meta = await writer.writeMetadata({ url: 'http://lib.test/', date: new Date(), concurrentTo: at.recordId, outlinks: [] });
    await assert.rejects(readResponsePayload(dir, meta), /not a response/);
  });

  it("reads a response's HTTP headers as sent, from the start of a large record as from a small one", async () => {
    const headers: [string, string][] = [
      ['Content-Type', 'application/json'],
      ['Access-Control-Allow-Origin', 'https://lib.test'],
      ['Vary', 'Origin'],
    ];
    const small = await writer.writeExchange(exchange('http://lib.test/a.json', { responseHeaders: headers, payload: Buffer.from('{}') }));
    // Random bytes do not compress: the member is far longer than the part read for the head.
    const large = await writer.writeExchange(exchange('http://lib.test/b.bin', { responseHeaders: headers, payload: randomBytes(300_000) }));
    assert.ok(large.length > 200_000);
    assert.deepEqual(await readResponseHeaders(dir, small), headers);
    assert.deepEqual(await readResponseHeaders(dir, large), headers);
    const meta = await writer.writeMetadata({ url: 'http://lib.test/', date: new Date(), concurrentTo: small.recordId, outlinks: [] });
    await assert.rejects(readResponseHeaders(dir, meta), /not a response/);
  });
});
