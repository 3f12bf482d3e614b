import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeCdxj } from '../../../electron/engine/export/cdxj.js';
import { finishedWarcFiles } from '../../../electron/engine/export/warcFiles.js';
import { WarcWriter } from '../../../electron/engine/warc/writer.js';
import { readRaw } from '../../helpers/warcReadBack.js';
import { exchange, tempDir } from '../warc/fixtures.js';

describe('writeCdxj', () => {
  let dir: string;
  let lines: Record<string, string>[];

  before(async () => {
    dir = tempDir();
    const w = await WarcWriter.open({ dir: path.join(dir, 'warc'), prefix: 'harvest', software: 'test' });
    await w.writeExchange(exchange('http://lib.test/', { payload: Buffer.from('<p>home</p>') }));
    // The same payload again: a revisit record, indexed with the same digest.
    await w.writeExchange(exchange('http://lib.test/copy', { payload: Buffer.from('<p>home</p>') }));
    await w.close();
    const out = path.join(dir, 'index.cdxj');
    await writeCdxj(await finishedWarcFiles(path.join(dir, 'warc')), out, {});
    lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l.slice(l.indexOf(' {') + 1)) as Record<string, string>);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps the digest's algorithm prefix, as pywb writes non-SHA-1 digests", async () => {
    const [file] = (await finishedWarcFiles(path.join(dir, 'warc'))).map((f) => f.path);
    const records = await readRaw(file!);
    const digestOf = (type: string, uri: string): string | null =>
      records.find((r) => r.type === type && r.header('WARC-Target-URI') === uri)!.header('WARC-Payload-Digest');
    assert.equal(lines.length, 2);
    const home = lines.find((l) => l.url === 'http://lib.test/')!;
    const copy = lines.find((l) => l.url === 'http://lib.test/copy')!;
    assert.match(home.digest!, /^sha256:[A-Z2-7]{52}====$/);
    assert.equal(home.digest, digestOf('response', 'http://lib.test/'));
    assert.equal(copy.mime, 'warc/revisit');
    assert.equal(copy.digest, digestOf('revisit', 'http://lib.test/copy'));
    assert.equal(copy.digest, home.digest);
  });
});
