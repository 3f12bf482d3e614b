import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseJob } from '../../shared/job.js';
import { Crawl } from '../../electron/engine/crawl/crawl.js';
import { Archive } from '../../electron/engine/store/archive.js';
import { readRaw, type RawRecord } from '../helpers/warcReadBack.js';
import { listenOnLoopback } from '../helpers/loopback.js';

const LOGO = Buffer.from('89504e470d0a1a0a' + 'ab'.repeat(300), 'hex');

describe('payload deduplication across runs', () => {
  let work: string;
  let server: Server;
  let origin: string;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-dedup-'));
    // Two sections serve the same logo under different URLs.
    server = createServer((req, res) => {
      if (req.url === '/a/' || req.url === '/b/') {
        const section = req.url[1]!;
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end(`<title>${section}</title><img src="/${section}/logo.png">`);
      } else if (req.url === '/a/logo.png' || req.url === '/b/logo.png') {
        res.writeHead(200, { 'Content-Type': 'image/png' }).end(LOGO);
      } else res.writeHead(404).end();
    });
    origin = await listenOnLoopback(server);
  });

  after(() => {
    server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  async function recordsOf(dir: string, files: readonly string[]): Promise<RawRecord[]> {
    const out: RawRecord[] = [];
    for (const f of files) out.push(...(await readRaw(path.join(dir, f))));
    return out;
  }

  it("writes a revisit in a later run that refers to the first run's response record", async () => {
    const dir = path.join(work, 'archive');
    const first = Archive.create(dir, parseJob({ seeds: [`${origin}/a/`], politeness: { delayMs: 0 } }));
    try {
      assert.equal(await new Crawl(first).run(), 'finished');
      // A resumed crawl with another seed: the job is what the next run reads from the catalogue.
      first.catalogue.setMeta('job', JSON.stringify(parseJob({ seeds: [`${origin}/a/`, `${origin}/b/`], politeness: { delayMs: 0 } })));
    } finally {
      first.close();
    }
    const firstFiles = readdirSync(path.join(dir, 'warc'));
    assert.equal(firstFiles.length, 1);

    const second = Archive.open(dir);
    try {
      assert.equal(await new Crawl(second).run(), 'finished');
      assert.equal(second.catalogue.lookup(`${origin}/b/logo.png`)?.state, 'archived');
    } finally {
      second.close();
    }
    const secondFiles = readdirSync(path.join(dir, 'warc')).filter((f) => !firstFiles.includes(f));
    assert.equal(secondFiles.length, 1, 'the second run writes its own WARC file');

    const original = (await recordsOf(path.join(dir, 'warc'), firstFiles)).find(
      (r) => r.type === 'response' && r.header('WARC-Target-URI') === `${origin}/a/logo.png`,
    );
    assert.ok(original, 'the first run recorded the logo as a response');
    const later = (await recordsOf(path.join(dir, 'warc'), secondFiles)).filter(
      (r) => r.header('WARC-Target-URI') === `${origin}/b/logo.png` && r.type !== 'request',
    );
    assert.equal(later.length, 1);
    const revisit = later[0]!;
    assert.equal(revisit.type, 'revisit');
    assert.equal(revisit.header('WARC-Refers-To'), original.header('WARC-Record-ID'));
    assert.equal(revisit.header('WARC-Refers-To-Target-URI'), `${origin}/a/logo.png`);
    assert.equal(revisit.header('WARC-Refers-To-Date'), original.header('WARC-Date'));
    assert.equal(revisit.header('WARC-Payload-Digest'), original.header('WARC-Payload-Digest'));
  });
});
