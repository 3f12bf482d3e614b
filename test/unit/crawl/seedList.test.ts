import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { parseJob } from '../../../shared/job.js';
import {
  admitSeedList,
  firstSeedOf,
  readSeedList,
  scopeSeedsFor,
  SeedListError,
} from '../../../electron/engine/crawl/seedList.js';
import { Catalogue } from '../../../electron/engine/store/catalogue.js';

const dir = mkdtempSync(path.join(tmpdir(), 'harvest-seedlist-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function listFile(text: string): string {
  const file = path.join(dir, `seeds-${n++}.txt`);
  writeFileSync(file, text);
  return file;
}

async function readAll(file: string) {
  const out = [];
  for await (const s of readSeedList(file)) out.push(s);
  return out;
}

describe('seed list', () => {
  it('reads one canonical URL per line, skipping blanks and comments, with line numbers', async () => {
    const file = listFile('\uFEFF# staff pages\nHTTP://Uni.Test:80/a/../b\r\n\n   https://uni.test/c#frag  \n  # indented comment\n');
    assert.deepEqual(await readAll(file), [
      { url: 'http://uni.test/b', line: 2 },
      { url: 'https://uni.test/c', line: 4 },
    ]);
    assert.equal(await firstSeedOf(file), 'http://uni.test/b');
  });

  it('names the file and line of the first invalid entry', async () => {
    const file = listFile('http://uni.test/ok\n# fine\nftp://uni.test/file\nnot a url\n');
    await assert.rejects(readAll(file), (e: unknown) => {
      assert.ok(e instanceof SeedListError);
      assert.equal(e.line, 3);
      assert.match(e.message, /seeds-\d+\.txt, line 3: 'ftp:\/\/uni\.test\/file' is not an http/);
      return true;
    });
    await assert.rejects(readAll(listFile('relative/path\n')), /line 1: 'relative\/path' is not a URL/);
  });

  it('reports a missing file or one without URLs as a seed list error', async () => {
    await assert.rejects(readAll(path.join(dir, 'missing.txt')), (e: unknown) => {
      assert.ok(e instanceof SeedListError);
      assert.match(e.message, /cannot read the seed list \(ENOENT\)/);
      return true;
    });
    await assert.rejects(firstSeedOf(listFile('# nothing\n\n')), /holds no URL/);
  });

  it('keeps only the seeds the scope needs: one per host in host mode', async () => {
    const file = listFile(
      Array.from({ length: 300 }, (_, i) => `http://${i % 3 === 0 ? 'a' : 'b'}.test/p/${i}`).join('\n') + '\n',
    );
    const job = parseJob({ seeds: ['http://a.test/'] });
    assert.deepEqual(await scopeSeedsFor(file, job.seeds, job.scope), ['http://a.test/', 'http://b.test/p/1']);
  });

  it('queues every listed URL once, as a seed at depth 0, in the catalogue', async () => {
    const urls = Array.from({ length: 12_000 }, (_, i) => `http://a.test/item/${i}`);
    const file = listFile([...urls, urls[5]].join('\n'));
    const job = parseJob({ seeds: ['http://a.test/'] });
    const catalogue = Catalogue.open(path.join(dir, 'admit.sqlite'));
    try {
      assert.equal(await admitSeedList(file, job, catalogue), 12_001);
      assert.equal(catalogue.countByState().queued, 12_000);
      const row = catalogue.lookup('http://a.test/item/11999');
      assert.equal(row?.state, 'queued');
      assert.equal(row?.depth, 0);
      assert.deepEqual(catalogue.sitesWithQueued(), ['http://a.test']);
    } finally {
      catalogue.close();
    }
  });
});
