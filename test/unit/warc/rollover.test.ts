import assert from 'node:assert/strict';
import { rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ExchangeLocation } from '../../../electron/engine/warc/types.js';
import { WarcWriter } from '../../../electron/engine/warc/writer.js';
import { exchange, noise, tempDir, warcFiles } from './fixtures.js';
import { assertTilesFile, payloadOf, readRaw, type RawRecord } from '../../helpers/warcReadBack.js';

const MAX = 4000;

describe('WarcWriter roll-over', () => {
  let dir: string;
  let files: string[];
  let records: Map<string, RawRecord[]>;
  const locs: ExchangeLocation[] = [];
  const xs = Array.from({ length: 8 }, (_, i) => exchange(`http://lib.test/doc/${i}`, { payload: noise(`doc ${i}`, 900) }));
  const big = exchange('http://lib.test/big.pdf', { payload: noise('big', 3 * MAX) });

  before(async () => {
    dir = tempDir();
    const w = await WarcWriter.open({ dir, prefix: 'roll', software: 'Harvest', maxFileBytes: MAX });
    for (const x of [...xs.slice(0, 4), big, ...xs.slice(4)]) locs.push(await w.writeExchange(x));
    await w.close();
    files = warcFiles(dir);
    records = new Map();
    for (const f of files) {
      const raw = await readRaw(path.join(dir, f));
      assertTilesFile(raw, path.join(dir, f));
      records.set(f, raw);
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('spreads the records over several finished files with consecutive serials', () => {
    assert.ok(files.length >= 4, `${files.length} files`);
    files.forEach((f, i) => assert.match(f, new RegExp(`^roll-\\d{17}-${String(i).padStart(5, '0')}\\.warc\\.gz$`)));
  });

  it('starts each file with its own warcinfo record, named after the file and named by its records', () => {
    const infoIds = new Set<string>();
    for (const [f, raw] of records) {
      assert.equal(raw[0]!.type, 'warcinfo');
      assert.equal(raw[0]!.header('WARC-Filename'), f);
      const id = raw[0]!.header('WARC-Record-ID')!;
      infoIds.add(id);
      for (const r of raw.slice(1)) assert.equal(r.header('WARC-Warcinfo-ID'), id);
    }
    assert.equal(infoIds.size, files.length);
  });

  it('keeps each file within maxFileBytes unless one exchange alone is larger, and never splits an exchange', () => {
    for (const [f, raw] of records) {
      const size = statSync(path.join(dir, f)).size;
      const types = raw.slice(1).map((r) => r.type);
      assert.equal(types.length % 2, 0, `${f} holds whole exchanges`);
      const holdsBig = raw.some((r) => r.header('WARC-Target-URI') === big.url);
      if (holdsBig) assert.deepEqual(types, ['response', 'request'], 'the oversized exchange gets a file to itself');
      else assert.ok(size <= MAX, `${f} is ${size} bytes`);
    }
  });

  it('keeps every payload, and returns the file and offset each response went to', () => {
    for (const [i, x] of [...xs.slice(0, 4), big, ...xs.slice(4)].entries()) {
      const loc = locs[i]!;
      const r = records.get(loc.file)?.find((rec) => rec.offset === loc.offset);
      assert.ok(r, `${x.url} at ${loc.file}:${loc.offset}`);
      assert.equal(r.header('WARC-Record-ID'), loc.recordId);
      assert.equal(r.length, loc.length);
      assert.deepEqual(payloadOf(r.block), x.payload);
    }
  });
});
