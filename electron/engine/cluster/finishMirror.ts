import { mkdirSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { DocumentPool } from '../crawl/documentPool.js';
import { documentKind } from '../crawl/documents.js';
import { finalizeMirror } from '../crawl/finalize.js';
import { finishedWarcFiles } from '../export/warcFiles.js';
import type { Archive } from '../store/archive.js';
import { originalKeys, parseWarcHead, recordKeys } from '../warc/fields.js';
import { scanGzipMembers } from '../warc/gzipMembers.js';
import { viewOf } from '../warc/recordView.js';
import type { RecordPlace } from '../warc/types.js';
import { readRenderedOriginal } from './renderedOriginals.js';

interface Original {
  record: RecordPlace;
  contentEncoding: string | null;
}

/**
 * The cluster's finishing pass, as a local crawl makes it when it completes: every saved document
 * rewritten from its original so its links point where their targets finally ended (a redirect's
 * last file, a page that failed left absolute), and the mirror's entry page. Workers write each
 * document once, guessing the targets still queued; no worker knows when the harvest is over, so
 * the pass runs when it is exported. The originals are found in the workers' WARC files (a
 * response record per URL), a rendered page's in the store (renderedOriginals.ts); the catalogue
 * is the one `clusterArchive` made. Returns the documents rewritten.
 */
export async function finishClusterMirror(archive: Archive, store: string): Promise<number> {
  const originals = await responseRecords(archive.warcDir);
  const c = archive.catalogue;
  const saved = [...c.iterateRecords()].filter((r) => r.state === 'archived' && documentKind(r.contentType, r.url) !== 'other');
  c.transaction(() => {
    for (const r of saved) {
      const packed = r.localPath === null ? null : readRenderedOriginal(store, r.localPath);
      const original = packed === null ? originals.get(r.url) : { packed };
      if (original === undefined) continue;
      c.putOriginal(c.lookup(r.url)!.id, r.contentType, original);
    }
  });
  const tmpDir = path.join(store, 'tmp', 'finishing');
  mkdirSync(tmpDir, { recursive: true });
  const pool = new DocumentPool({ mirrorRoot: path.join(store, 'mirror'), tmpDir });
  try {
    await pool.ready();
    return await finalizeMirror(archive, pool, () => {}, { every: true });
  } finally {
    await pool.close();
  }
}

/**
 * URL -> the response record holding its payload: its own, or for a URL recorded as a revisit (a
 * payload already archived under another URL) its original's, found by the keys the revisit names
 * it by. A URL fetched again after a failover has two, alike.
 */
async function responseRecords(warcDir: string): Promise<Map<string, Original>> {
  const byUrl = new Map<string, Original>();
  const byKey = new Map<string, Original>();
  const revisits = new Map<string, string[]>();
  for (const warc of await finishedWarcFiles(warcDir)) {
    const fh = await open(warc.path, 'r');
    try {
      await scanGzipMembers(fh, (member) => {
        const head = parseWarcHead(member.head.toString('latin1'));
        const url = head?.get('warc-target-uri');
        if (!head || !url) return;
        const type = head.get('warc-type');
        if (type === 'revisit') revisits.set(url, originalKeys(head));
        if (type !== 'response') return;
        const encoding = viewOf(warc.name, member)?.headers.find(([name]) => name.toLowerCase() === 'content-encoding');
        const original = { record: { file: warc.name, offset: member.offset, length: member.length }, contentEncoding: encoding?.[1] ?? null };
        byUrl.set(url, original);
        for (const k of recordKeys(head)) byKey.set(k, original);
      });
    } finally {
      await fh.close();
    }
  }
  for (const [url, keys] of revisits) {
    const original = keys.map((k) => byKey.get(k)).find((o) => o !== undefined);
    if (!byUrl.has(url) && original !== undefined) byUrl.set(url, original);
  }
  return byUrl;
}
