import { mkdirSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { WARCParser } from 'warcio';
import { DocumentPool } from '../crawl/documentPool.js';
import { documentKind } from '../crawl/documents.js';
import { finalizeMirror } from '../crawl/finalize.js';
import { finishedWarcFiles } from '../export/warcFiles.js';
import type { Archive } from '../store/archive.js';
import { scanGzipMembers } from '../warc/gzipMembers.js';
import type { RecordPlace } from '../warc/types.js';

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
 * response record per URL); the catalogue is the one `clusterArchive` made. Returns the documents
 * rewritten.
 */
export async function finishClusterMirror(archive: Archive, store: string): Promise<number> {
  const originals = await responseRecords(archive.warcDir);
  const c = archive.catalogue;
  const saved = [...c.iterateRecords()].filter((r) => r.state === 'archived' && documentKind(r.contentType, r.url) !== 'other');
  c.transaction(() => {
    for (const r of saved) {
      const original = originals.get(r.url);
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
 * payload already archived under another URL) its original's. A URL fetched again after a failover
 * has two, alike.
 */
async function responseRecords(warcDir: string): Promise<Map<string, Original>> {
  const byUrl = new Map<string, Original>();
  const byId = new Map<string, Original>();
  const revisits = new Map<string, { id: string | null; url: string | null }>();
  for (const warc of await finishedWarcFiles(warcDir)) {
    const fh = await open(warc.path, 'r');
    try {
      await scanGzipMembers(fh, async (member) => {
        const record = await new WARCParser([member.head], { parseHttp: true }).parse();
        const url = record?.warcTargetURI;
        if (!record || !url) return;
        if (record.warcType === 'revisit') {
          revisits.set(url, { id: record.warcHeader('WARC-Refers-To') ?? null, url: record.warcHeader('WARC-Refers-To-Target-URI') ?? null });
        } else if (record.warcType === 'response') {
          const original = {
            record: { file: warc.name, offset: member.offset, length: member.length },
            contentEncoding: record.httpHeaders?.headers.get('content-encoding') ?? null,
          };
          byUrl.set(url, original);
          if (record.warcHeader('WARC-Record-ID')) byId.set(record.warcHeader('WARC-Record-ID')!, original);
        }
      });
    } finally {
      await fh.close();
    }
  }
  for (const [url, refers] of revisits) {
    const original = (refers.id === null ? undefined : byId.get(refers.id)) ?? (refers.url === null ? undefined : byUrl.get(refers.url));
    if (!byUrl.has(url) && original !== undefined) byUrl.set(url, original);
  }
  return byUrl;
}
