import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CrawlStats } from '../../shared/crawl.js';
import { answerQuery } from '../../electron/host/archiveQueries.js';
import { Archive } from '../../electron/engine/store/archive.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { listenOnLoopback } from '../helpers/loopback.js';

/**
 * Three contact pages under a hub: A never changes (no validators: its re-crawl is `unchanged`),
 * B's phone number changes between the captures (`changed`), C carries an ETag and answers 304
 * (`not-modified`).
 */
const phones = { a: '+44 1632 960001', b: '+44 1632 960002', c: '+44 1632 960003' };

function contact(id: keyof typeof phones): string {
  return `<!doctype html><html><head><title>Contact ${id}</title></head><body><h1>Contact office ${id}</h1>
<table><tr><th>Phone</th><td>${phones[id]}</td></tr><tr><th>Email</th><td>office-${id}@example.org</td></tr></table></body></html>`;
}

const HUB = `<!doctype html><html><head><title>Offices</title></head><body><p>Our offices.</p>
<a href="/contact/a">Contact A</a> <a href="/contact/b">Contact B</a> <a href="/contact/c">Contact C</a></body></html>`;

const TEMPLATE = {
  topic: { keywords: ['contact', 'office'] },
  filters: [['contact']],
  extract: { phone: { keywords: ['phone'] }, email: { keywords: ['email'] } },
};

interface PageRow {
  url: string;
  capture: string;
  fields: Record<string, { value: string; confidence: number }>;
}

let server: Server;
let origin = '';
const dir = mkdtempSync(path.join(tmpdir(), 'harvest-refocus-'));

before(async () => {
  server = createServer((req, res) => {
    const id = /^\/contact\/([abc])$/.exec(req.url ?? '')?.[1] as keyof typeof phones | undefined;
    if (id === 'c') {
      const etag = `"c-${phones.c}"`;
      if (req.headers['if-none-match'] === etag) return res.writeHead(304, { etag }).end();
      return res.writeHead(200, { 'content-type': 'text/html', etag }).end(contact('c'));
    }
    if (id !== undefined) return res.writeHead(200, { 'content-type': 'text/html' }).end(contact(id));
    if (req.url === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(HUB);
    res.writeHead(404).end();
  });
  origin = await listenOnLoopback(server);
});

after(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

async function harvest(args: string[]): Promise<string> {
  const run = await runHarvest(args);
  assert.equal(run.status, 0, run.stderr);
  return run.stdout;
}

async function extracted(archive: string): Promise<Map<string, PageRow[]>> {
  const rows = JSON.parse(await harvest(['extract', archive, '--format', 'json'])) as PageRow[];
  const byPath = new Map<string, PageRow[]>();
  for (const r of rows) byPath.set(new URL(r.url).pathname, [...(byPath.get(new URL(r.url).pathname) ?? []), r]);
  return byPath;
}

describe('focused harvest re-crawl', () => {
  it('re-extracts only changed pages: unchanged and not-modified ones keep their rows, a changed one gets rows under the new capture', async () => {
    const template = path.join(dir, 't.json');
    writeFileSync(template, JSON.stringify(TEMPLATE));
    const archive = path.join(dir, 'a');
    await harvest(['crawl', `${origin}/`, '--out', archive, '--quiet', '--template', template, '--delay-ms', '0']);
    const first = await extracted(archive);
    assert.deepEqual([...first.keys()].sort(), ['/contact/a', '/contact/b', '/contact/c']);
    assert.equal(first.get('/contact/b')![0]!.fields.phone!.value, phones.b);
    // What the app's extracted-records table asks for (archives.extracted), the CLI's records in pages.
    const opened = Archive.open(archive, { readonly: true });
    try {
      const table = answerQuery(opened, { kind: 'extracted', limit: 2 });
      assert.deepEqual(table.fields, ['phone', 'email']);
      assert.equal(table.truncated, true);
      assert.deepEqual(table.records, [...first.values()].flat().slice(0, 2));
    } finally {
      opened.close();
    }
    const firstStats = JSON.parse(await harvest(['stats', archive, '--json'])) as CrawlStats & { relevantPages: number };

    phones.b = '+44 1632 960099';
    const events = path.join(dir, 'events.jsonl');
    await harvest(['recrawl', archive, '--quiet', '--events-jsonl', events]);
    const changes = JSON.parse(await harvest(['changes', archive, '--json'])) as { counts: Record<string, number>; changed: string[] };
    assert.deepEqual(changes.changed, [`${origin}/contact/b`]);
    assert.equal(changes.counts.notModified, 1, 'C answered 304');

    const second = await extracted(archive);
    for (const kept of ['/contact/a', '/contact/c']) {
      assert.deepEqual(second.get(kept), first.get(kept), `${kept} keeps its one row of the first capture`);
    }
    const b = second.get('/contact/b')!;
    assert.equal(b.length, 2, 'B: the first capture and the new one');
    assert.deepEqual(b[0], first.get('/contact/b')![0]);
    assert.ok(b[1]!.capture > b[0]!.capture);
    assert.equal(b[1]!.fields.phone!.value, '+44 1632 960099');
    assert.equal(b[1]!.fields.email!.value, 'office-b@example.org');

    const stats = JSON.parse(await harvest(['stats', archive, '--json'])) as CrawlStats & { relevantPages: number };
    assert.equal(stats.relevantPages, firstStats.relevantPages, 'a page judged again is counted once');
    const progress = readFileSync(events, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; focus?: { relevantPages: number } })
      .filter((e) => e.type === 'progress');
    assert.equal(progress.at(-1)?.focus?.relevantPages, stats.relevantPages, "the re-crawl's progress counts each page once too");
  });
});
