/**
 * Reading ARC files (version 1, plain and gzipped a member per record): each record comes out as
 * the WARC record that stands for it, the version block as none, and a damaged record is reported
 * and skipped.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import { readWarcRecords, type SourceItem } from '../../../electron/engine/import/warcRecords.js';
import { recordFacts } from '../../../electron/engine/import/recordFacts.js';

const versionBlock = (() => {
  const body = '1 0 Test\nURL IP-address Archive-date Content-type Archive-length\n';
  return Buffer.from(`filedesc://test.arc 0.0.0.0 20050614070144 text/plain ${body.length}\n${body}\n`, 'latin1');
})();

function arcRecord(url: string, date: string, contentType: string, body: Buffer | string): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'latin1') : body;
  return Buffer.concat([Buffer.from(`${url} 192.0.2.7 ${date} ${contentType} ${bytes.length}\n`, 'latin1'), bytes, Buffer.from('\n')]);
}

const page = arcRecord('http://old.example.test/', '20050614070159', 'text/html', 'HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<title>Old home</title>\n\n<p>two blank lines above</p>');
const image = arcRecord('http://old.example.test/logo.gif', '20050614070201', 'image/gif', Buffer.concat([Buffer.from('HTTP/1.0 200 OK\r\nContent-Type: image/gif\r\n\r\nGIF89a'), Buffer.from([0, 10, 0x0a, 255])]));
const dns = arcRecord('dns:old.example.test', '20050614070150', 'text/dns', '20050614070150\nold.example.test. 3600 IN A 192.0.2.7\n');

async function readAll(file: string): Promise<SourceItem[]> {
  const items: SourceItem[] = [];
  for await (const item of readWarcRecords(file)) items.push(item);
  return items;
}

describe('import: reading ARC files', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'harvest-arc-records-'));
  after(() => rmSync(work, { recursive: true, force: true }));
  const write = (name: string, bytes: Buffer) => {
    const file = path.join(work, name);
    writeFileSync(file, bytes);
    return file;
  };

  const checkConverted = (items: SourceItem[]) => {
    const records = items.filter((i) => i.kind === 'record');
    const facts = records.map((r) => recordFacts(r.content)!);
    assert.deepEqual(
      facts.map((f) => [f.type, f.uri, f.date?.toISOString()]),
      [
        ['resource', 'dns:old.example.test', '2005-06-14T07:01:50.000Z'],
        ['response', 'http://old.example.test/', '2005-06-14T07:01:59.000Z'],
        ['response', 'http://old.example.test/logo.gif', '2005-06-14T07:02:01.000Z'],
      ],
    );
    assert.equal(facts[1]!.http?.status, 200);
    assert.equal(facts[1]!.http?.payload.toString(), '<title>Old home</title>\n\n<p>two blank lines above</p>');
    assert.deepEqual([...facts[2]!.http!.payload], [...Buffer.from('GIF89a'), 0, 10, 0x0a, 255], 'binary bodies kept byte for byte');
    assert.match(records[1]!.content.toString('latin1'), /^WARC\/1\.0\r\n(.+\r\n)*WARC-IP-Address: 192\.0\.2\.7\r\n/);
  };

  it('reads a plain ARC file as WARC records', async () => {
    const items = await readAll(write('plain.arc', Buffer.concat([versionBlock, dns, page, image])));
    assert.deepEqual(items.filter((i) => i.kind === 'damage'), []);
    checkConverted(items);
  });

  it('reads a gzipped ARC file, a member per record', async () => {
    const items = await readAll(write('members.arc.gz', Buffer.concat([versionBlock, dns, page, image].map((r) => gzipSync(r)))));
    assert.deepEqual(items.filter((i) => i.kind === 'damage'), []);
    checkConverted(items);
  });

  it('gives the same record the same WARC record, so a second copy is a duplicate', async () => {
    const a = (await readAll(write('a.arc', Buffer.concat([versionBlock, page])))).find((i) => i.kind === 'record');
    const b = (await readAll(write('b.arc.gz', Buffer.concat([versionBlock, page].map((r) => gzipSync(r)))))).find((i) => i.kind === 'record');
    assert.ok(a?.kind === 'record' && b?.kind === 'record');
    assert.ok(a.content.equals(b.content));
  });

  it('reports a record whose header line is damaged, with its offset, and reads on', async () => {
    const broken = Buffer.from('http://old.example.test/broken 192.0.2.7 20050614070300 text/html many\nHTTP/1.0 200 OK\r\n\r\nlost\n', 'latin1');
    const items = await readAll(write('damaged.arc', Buffer.concat([versionBlock, broken, page])));
    const damage = items.filter((i) => i.kind === 'damage');
    assert.equal(damage.length, 1);
    assert.equal(damage[0]!.offset, versionBlock.length);
    assert.match(damage[0]!.kind === 'damage' ? damage[0]!.why : '', /not an ARC header line/);
    assert.deepEqual(
      items.filter((i) => i.kind === 'record').map((r) => (r.kind === 'record' ? recordFacts(r.content)!.uri : null)),
      ['http://old.example.test/'],
    );
  });

  it('reports an ARC record cut short at the end of the file', async () => {
    const cut = page.subarray(0, page.length - 20);
    const items = await readAll(write('cut.arc', Buffer.concat([versionBlock, dns, cut])));
    assert.deepEqual(
      items.map((i) => i.kind),
      ['record', 'damage'],
    );
    assert.match(items[1]!.kind === 'damage' ? items[1]!.why : '', /truncated ARC record/);
  });
});
