import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { WarcCopy } from '../../../electron/engine/import/warcCopy.js';

const record = (n: number) => Buffer.from(`WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 1\r\n\r\n${n}\r\n\r\n`);

describe('WarcCopy: an interrupted import’s WARC file', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'harvest-warc-copy-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is cut back to what the catalogue committed, and appended to from there', async () => {
    const copy = await WarcCopy.create(dir, new Date(Date.UTC(2024, 0, 1)), 1);
    await copy.append(record(1), null);
    const committed = copy.bytes;
    // Written after the last commit: the kill came before the catalogue took it.
    await copy.append(record(2), null);
    await copy.abandon();
    const open = path.join(dir, `${copy.name}.open`);
    assert.ok(statSync(open).size > committed);
    const again = await WarcCopy.resume(dir, copy.name, committed);
    assert.equal(statSync(open).size, committed, 'cut back before anything is appended');
    const place = await again.append(record(3), null);
    assert.equal(place.offset, committed);
    await again.close();
    await again.publish();
    assert.equal(gunzipSync(readFileSync(path.join(dir, copy.name))).toString('latin1'), `${record(1).toString('latin1')}${record(3).toString('latin1')}`);
  });

  it('tidies the folder: a file committed as done is finished, one the catalogue does not name is deleted', async () => {
    const done = await WarcCopy.create(dir, new Date(Date.UTC(2024, 0, 2)), 1);
    await done.append(record(1), null);
    await done.close();
    const stray = await WarcCopy.create(dir, new Date(Date.UTC(2024, 0, 2)), 2);
    await stray.abandon();
    const going = await WarcCopy.create(dir, new Date(Date.UTC(2024, 0, 2)), 3);
    await going.abandon();
    // Another tool's file in the folder is not the import's.
    writeFileSync(path.join(dir, 'other.warc.gz.open'), 'x');
    await WarcCopy.tidy(dir, new Map([[done.name, true], [going.name, false]]));
    const names = readdirSync(dir);
    assert.ok(names.includes(done.name), 'the done file gets its finished name');
    assert.ok(!names.some((n) => n.startsWith(stray.name)), 'the file made after the last commit is gone');
    assert.ok(names.includes(`${going.name}.open`), 'the file being read stays unfinished');
    assert.ok(existsSync(path.join(dir, 'other.warc.gz.open')));
  });
});
