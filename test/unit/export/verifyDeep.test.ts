import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import { verify } from '../../../electron/engine/export/verify.js';
import { scanGzipMembers } from '../../../electron/engine/warc/gzipMembers.js';
import { WarcWriter } from '../../../electron/engine/warc/writer.js';
import { waczPackage, writeZip, type ZipEntrySpec } from '../../helpers/zipFiles.js';
import { exchange, noise, tempDir, warcFiles } from '../warc/fixtures.js';

/** A .warc.gz split into its gzip members (one record each, as Harvest writes them). */
async function membersOf(file: string): Promise<Buffer[]> {
  const bytes = readFileSync(file);
  const out: Buffer[] = [];
  const fh = await open(file, 'r');
  try {
    await scanGzipMembers(fh, (m) => void out.push(bytes.subarray(m.offset, m.offset + m.length)));
  } finally {
    await fh.close();
  }
  return out;
}

describe('harvest verify --deep: every WARC record read back', () => {
  let dir: string;
  let warcName: string;
  let parts: Buffer[];
  let warc: Buffer;
  let n = 0;

  before(async () => {
    dir = tempDir();
    const warcDir = path.join(dir, 'warc');
    const writer = await WarcWriter.open({ dir: warcDir, prefix: 'harvest', software: 'test' });
    await writer.writeExchange(exchange('http://lib.test/', { payload: Buffer.from('<p>The library catalogue</p>') }));
    await writer.writeExchange(exchange('http://lib.test/big.bin', { payload: noise('big', 200_000), responseHeaders: [['Content-Type', 'application/octet-stream']] }));
    await writer.close();
    warcName = warcFiles(warcDir)[0]!;
    warc = readFileSync(path.join(warcDir, warcName));
    parts = await membersOf(path.join(warcDir, warcName));
    assert.equal(Buffer.concat(parts).length, warc.length);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A WACZ holding `warcBytes` whose datapackage.json hashes are made to match it. */
  async function wacz(warcBytes: Buffer): Promise<string> {
    const resources: ZipEntrySpec[] = [{ name: `archive/${warcName}`, data: warcBytes }];
    const file = path.join(dir, `t${n++}.wacz`);
    await writeZip(file, [...resources, ...waczPackage(resources)]);
    return file;
  }

  /** The WARC with record `index`'s uncompressed bytes replaced by `edit(record)`, re-gzipped. */
  function editRecord(index: number, edit: (record: Buffer) => Buffer): Buffer {
    const copy = [...parts];
    copy[index] = gzipSync(edit(gunzipSync(copy[index]!)));
    return Buffer.concat(copy);
  }

  it('passes an intact WACZ and counts its records (warcinfo, two responses, two requests)', async () => {
    const r = await verify(await wacz(warc), { deep: true });
    assert.deepEqual(r.problems, []);
    assert.equal(r.records, 5);
  });

  it('finds a record edited after the fact, even when the package hashes were rewritten to match', async () => {
    const edited = editRecord(1, (rec) => Buffer.from(rec.toString('latin1').replace('The library catalogue', 'The library cataloguX'), 'latin1'));
    const file = await wacz(edited);
    assert.equal((await verify(file)).ok, true, 'the package alone cannot tell');
    const r = await verify(file, { deep: true });
    assert.equal(r.ok, false);
    const details = r.problems.map((p) => `${p.kind} ${p.path} ${p.detail}`);
    assert.equal(details.length, 2, details.join('\n'));
    assert.match(details[0]!, /^altered archive\/.*\.warc\.gz record 2 \(response http:\/\/lib\.test\/.*WARC-Block-Digest is sha256:/);
    assert.match(details[1]!, /WARC-Payload-Digest is sha256:/);
  });

  it('finds a Content-Length that does not frame the block', async () => {
    const edited = editRecord(3, (rec) => {
      const text = rec.toString('latin1');
      const m = /Content-Length: (\d+)\r\n/.exec(text)!;
      return Buffer.from(text.replace(m[0], `Content-Length: ${Number(m[1]) - 1}\r\n`), 'latin1');
    });
    const r = await verify(await wacz(edited), { deep: true });
    assert.ok(r.problems.some((p) => p.kind === 'invalid' && /not followed by \\r\\n\\r\\n/.test(p.detail)), JSON.stringify(r.problems));
  });

  it('finds a gzip member whose CRC no longer matches', async () => {
    const copy = [...parts];
    const damaged = Buffer.from(copy[2]!);
    damaged[damaged.length - 6] = damaged[damaged.length - 6]! ^ 0xff;
    copy[2] = damaged;
    const r = await verify(await wacz(Buffer.concat(copy)), { deep: true });
    assert.deepEqual(r.problems.map((p) => p.kind), ['invalid']);
    assert.match(r.problems[0]!.detail, /^gzip data damaged: incorrect data check/);
  });

  it('finds a record cut short at the end of the file', async () => {
    const copy = [...parts];
    const last = gunzipSync(copy.at(-1)!);
    copy[copy.length - 1] = gzipSync(last.subarray(0, last.length - 10));
    const r = await verify(await wacz(Buffer.concat(copy)), { deep: true });
    assert.match(r.problems.map((p) => p.detail).join('\n'), /record 5 \(request .* is cut short/);
  });

  it('reads the WARC files of a WACZ inside a bag', async () => {
    const edited = editRecord(1, (rec) => Buffer.from(rec.toString('latin1').replace('library', 'LIBRARY'), 'latin1'));
    const bag = path.join(dir, 'bag');
    mkdirSync(path.join(bag, 'data'), { recursive: true });
    const inner = await wacz(edited);
    const innerBytes = readFileSync(inner);
    writeFileSync(path.join(bag, 'data', 'site.wacz'), innerBytes);
    writeFileSync(path.join(bag, 'bagit.txt'), 'BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n');
    writeFileSync(path.join(bag, 'manifest-sha512.txt'), `${createHash('sha512').update(innerBytes).digest('hex')}  data/site.wacz\n`);
    assert.equal((await verify(bag)).ok, true);
    const r = await verify(bag, { deep: true });
    assert.equal(r.records, 5);
    assert.ok(r.problems.length > 0 && r.problems.every((p) => p.path === `data/site.wacz/archive/${warcName}`), JSON.stringify(r.problems));
  });
});
