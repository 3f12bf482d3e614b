import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseJob, type JobInput } from '../../shared/job.js';
import { Crawl } from '../../electron/engine/crawl/crawl.js';
import { Archive } from '../../electron/engine/store/archive.js';
import { writeMetadata } from '../../electron/engine/store/metadata.js';
import { readRaw } from '../helpers/warcReadBack.js';

describe("a crawl's warcinfo record names its operator when the archivist set a contact", () => {
  let work: string;
  let server: Server;
  let origin: string;
  let n = 0;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-operator-'));
    server = createServer((req, res) => {
      if (req.url === '/robots.txt') res.writeHead(404).end();
      else res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>Reading room</p>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const addr = server.address();
    origin = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  });
  after(() => {
    server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** Crawls the one-page site and returns the fields of its WARC file's warcinfo record. */
  async function warcinfoOf(job: Partial<JobInput>, metadata: Record<string, string> = {}): Promise<string[]> {
    const dir = path.join(work, `a${n++}`);
    const archive = Archive.create(dir, parseJob({ seeds: [`${origin}/`], ...job }));
    try {
      writeMetadata(archive.catalogue, metadata);
      assert.equal(await new Crawl(archive).run(), 'finished');
    } finally {
      archive.close();
    }
    const [file] = readdirSync(path.join(dir, 'warc'));
    const [info] = await readRaw(path.join(dir, 'warc', file!));
    assert.equal(info!.type, 'warcinfo');
    return info!.block.toString('utf8').split('\r\n');
  }

  it('writes the contact URL the crawl announced', async () => {
    const fields = await warcinfoOf({ contactUrl: 'https://archives.example.edu/web-archiving' });
    assert.ok(fields.includes('operator: https://archives.example.edu/web-archiving'), fields.join(' | '));
  });

  it("writes the archive's source organisation and contact e-mail", async () => {
    const fields = await warcinfoOf({}, { sourceOrganization: 'Example University Archives', contactEmail: 'archives@example.edu' });
    assert.ok(fields.includes('operator: Example University Archives <archives@example.edu>'), fields.join(' | '));
  });

  it("leaves it out when no contact was set (Harvest's own default is not the operator)", async () => {
    const fields = await warcinfoOf({}, { sourceOrganization: 'Example University Archives' });
    assert.deepEqual(fields.filter((f) => f.startsWith('operator:')), []);
  });
});
