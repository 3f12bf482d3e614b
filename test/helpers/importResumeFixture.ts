import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';

/**
 * Input files for the import's resume tests, written by hand (deterministic record ids and dates):
 * - first.warc.gz: a crawl, a gzip member per record (warcinfo, HTML pages, text files);
 * - second.warc: a later crawl, plain: pages, revisits of the first crawl's pages by payload digest,
 *   and a damaged record (a Content-Length past its blank line) in the middle;
 * - third.warc.gz: more of the later crawl (the same isPartOf), several records to a gzip member.
 */
export function writeImportInputs(dir: string, scale: { first: number; second: number; third: number }): string[] {
  const first = path.join(dir, 'first.warc.gz');
  const second = path.join(dir, 'second.warc');
  const third = path.join(dir, 'third.warc.gz');
  const crawl1 = Date.UTC(2023, 2, 1, 8);
  const crawl2 = Date.UTC(2024, 2, 1, 8);

  const a: Buffer[] = [gzipSync(warcinfo('crawl one', crawl1, 'a'))];
  for (let i = 0; i < scale.first; i++) {
    const when = crawl1 + i * 1000;
    a.push(gzipSync(response(`a${i}`, `http://one.example.test/p${i}.html`, when, 'text/html', pageHtml(i, 'first'))));
    if (i % 10 === 0) a.push(gzipSync(response(`at${i}`, `http://one.example.test/notes${i}.txt`, when, 'text/plain', Buffer.from(`plain notes number ${i}\n`))));
  }
  writeFileSync(first, Buffer.concat(a));

  const b: Buffer[] = [warcinfo('crawl two', crawl2, 'b')];
  for (let i = 0; i < scale.second; i++) {
    const when = crawl2 + i * 1000;
    if (i % 3 === 0) b.push(revisit(`b${i}`, `http://one.example.test/p${i}.html`, when, pageHtml(i, 'first')));
    else b.push(response(`b${i}`, `http://one.example.test/p${i}.html`, when, 'text/html', pageHtml(i, 'second')));
    if (i === Math.floor(scale.second / 2)) {
      const bad = response('damaged', 'http://one.example.test/damaged.html', when, 'text/html', pageHtml(i, 'damaged')).toString('latin1');
      b.push(Buffer.from(bad.replace(/Content-Length: (\d+)/, (_, n: string) => `Content-Length: ${Number(n) + 7}`), 'latin1'));
    }
  }
  writeFileSync(second, Buffer.concat(b));

  const c: Buffer[] = [gzipSync(warcinfo('crawl two', crawl2 + 3_600_000, 'c'))];
  let member: Buffer[] = [];
  for (let i = 0; i < scale.third; i++) {
    member.push(response(`c${i}`, `http://two.example.test/q${i}.html`, crawl2 + 3_600_000 + i * 1000, 'text/html', pageHtml(i, 'third')));
    if (member.length === 5) {
      c.push(gzipSync(Buffer.concat(member)));
      member = [];
    }
  }
  if (member.length > 0) c.push(gzipSync(Buffer.concat(member)));
  writeFileSync(third, Buffer.concat(c));
  return [first, second, third];
}

function pageHtml(i: number, crawl: string): Buffer {
  const words = Array.from({ length: 60 }, (_, w) => `w${(i * 7 + w * 13) % 997}`).join(' ');
  return Buffer.from(`<!doctype html><html><head><title>Page ${i} ${crawl}</title></head><body><a href="/p${i + 1}.html">next</a> <a href="/notes${i - (i % 10)}.txt">notes</a><p>${crawl} ${words}</p></body></html>`);
}

function id(key: string): string {
  const h = createHash('sha1').update(key).digest('hex');
  return `<urn:uuid:${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}>`;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
const payloadDigest = (body: Buffer) => `sha256:${createHash('sha256').update(body).digest('hex')}`;

function record(head: string[], block: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`WARC/1.1\r\n${[...head, `Content-Length: ${block.length}`].join('\r\n')}\r\n\r\n`), block, Buffer.from('\r\n\r\n')]);
}

function warcinfo(partOf: string, when: number, key: string): Buffer {
  return record(['WARC-Type: warcinfo', `WARC-Record-ID: ${id(`info ${key}`)}`, `WARC-Date: ${iso(when)}`, 'Content-Type: application/warc-fields'], Buffer.from(`software: hand\r\nisPartOf: ${partOf}\r\n`));
}

function response(key: string, url: string, when: number, type: string, body: Buffer): Buffer {
  const http = Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: ${type}\r\nContent-Length: ${body.length}\r\n\r\n`), body]);
  return record(
    ['WARC-Type: response', `WARC-Record-ID: ${id(key)}`, `WARC-Target-URI: ${url}`, `WARC-Date: ${iso(when)}`, `WARC-Payload-Digest: ${payloadDigest(body)}`, 'Content-Type: application/http; msgtype=response'],
    http,
  );
}

function revisit(key: string, url: string, when: number, body: Buffer): Buffer {
  const http = Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n');
  return record(
    [
      'WARC-Type: revisit',
      `WARC-Record-ID: ${id(key)}`,
      `WARC-Target-URI: ${url}`,
      `WARC-Date: ${iso(when)}`,
      `WARC-Payload-Digest: ${payloadDigest(body)}`,
      'WARC-Profile: http://netpreserve.org/warc/1.1/revisit/identical-payload-digest',
      'Content-Type: application/http; msgtype=response',
    ],
    http,
  );
}

/** Meta written at a wall-clock time, not from the records: differs between two imports of the same files. */
const WALL_CLOCK_META = new Set(['created_at']);

/**
 * Everything an import leaves in an archive that another import of the same files must match: every
 * catalogue table's rows, the search index's documents and texts, and the WARC files' names and
 * digests. Keyed by what it is, for a readable deepEqual.
 */
export function archiveContents(archive: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const db = new Database(path.join(archive, 'catalogue.sqlite'), { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
    for (const t of tables) {
      const rows = (db.prepare(`SELECT * FROM "${t}"`).all() as Record<string, unknown>[]).filter((r) => !(t === 'meta' && WALL_CLOCK_META.has(String(r.key))));
      out[`catalogue ${t}`] = rows.map((r) => JSON.stringify(r, (_, v: unknown) => (Buffer.isBuffer(v) ? v.toString('hex') : v))).sort();
    }
  } finally {
    db.close();
  }
  const text = new Database(path.join(archive, 'text.sqlite'), { readonly: true });
  try {
    out['search index'] = (
      text
        .prepare('SELECT d.capture, d.url_id, d.url, d.kind, d.fetched_at, s.digest, s.title FROM text_docs d JOIN text_store s ON s.id = d.text_id')
        .all() as Record<string, unknown>[]
    )
      .map((r) => JSON.stringify(r))
      .sort();
  } finally {
    text.close();
  }
  const warcDir = path.join(archive, 'warc');
  out['warc files'] = readdirSync(warcDir)
    .sort()
    .map((f) => `${f} ${createHash('sha256').update(readFileSync(path.join(warcDir, f))).digest('hex')}`);
  return out;
}

/** What an import's `--events-jsonl` file says so far: the records committed last, and whether the finishing pass began. */
export function committedIn(eventsFile: string): { records: number; rewriting: boolean } {
  let text = '';
  try {
    text = readFileSync(eventsFile, 'utf8');
  } catch {
    return { records: 0, rewriting: false };
  }
  let records = 0;
  let rewriting = false;
  // The last line may be written half.
  for (const line of text.split('\n').slice(0, -1)) {
    const e = JSON.parse(line) as { type: string; records?: number };
    if (e.type === 'committed') records = e.records ?? 0;
    if (e.type === 'rewriting') rewriting = true;
  }
  return { records, rewriting };
}
