import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { QaReport } from '../../../shared/report.js';
import { HARVEST_VERSION } from '../../../shared/job.js';
import { qaSummary } from '../qa/analyse.js';
import { importSection } from './importSection.js';
import type { Archive } from '../store/archive.js';
import { metadataLines } from '../../../shared/metadata.js';
import { readMetadata } from '../store/metadata.js';
import { readStats } from '../store/stats.js';
import { TextIndex } from '../store/textIndex.js';

export type { QaReport } from '../../../shared/report.js';

const EXAMPLES = 3;
const LARGEST = 10;

type Row = Record<string, unknown>;

/** Streams a file through SHA-256. */
async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function warcFiles(dir: string): Promise<{ name: string; bytes: number; sha256: string }[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => /\.warc(\.gz)?$/.test(n)).sort();
  } catch {
    return [];
  }
  return Promise.all(names.map(async (name) => ({ name, bytes: (await stat(path.join(dir, name))).size, sha256: await sha256Of(path.join(dir, name)) })));
}

/**
 * Collects the QA report (shared/report.ts): its counts are `harvest stats --json` itself, the rest
 * is read from the catalogue and the WARC files.
 */
export async function collectReport(archive: Archive): Promise<QaReport> {
  const c = archive.catalogue;
  const db = c.sqlite;
  const job = archive.job;
  const all = (sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as Row[];
  // Up to EXAMPLES rows per group, with the group's total: a window over the catalogue, not every row in memory.
  const examplesBy = (key: string, where: string) =>
    all(
      `SELECT k, url, n FROM (
         SELECT ${key} AS k, url, COUNT(*) OVER (PARTITION BY ${key}) AS n, ROW_NUMBER() OVER (PARTITION BY ${key} ORDER BY id) AS i
         FROM urls WHERE ${where}) WHERE i <= ${EXAMPLES}`,
    );
  const groups = (key: string, where: string) => {
    const rows = examplesBy(key, where);
    const byKey = new Map<unknown, { count: number; examples: string[] }>();
    for (const r of rows) {
      const g = byKey.get(r['k']) ?? { count: Number(r['n']), examples: [] };
      g.examples.push(r['url'] as string);
      byKey.set(r['k'], g);
    }
    return [...byKey.entries()].map(([k, g]) => ({ k, ...g })).sort((a, b) => b.count - a.count);
  };
  const skipped = groups('skip_reason', "state = 'skipped'").map((g) => ({ reason: g.k as string, count: g.count, examples: g.examples }));
  const failures = groups("CASE WHEN instr(error, ':') > 0 THEN substr(error, 1, instr(error, ':') - 1) ELSE error END", "state = 'failed'").map((g) => ({
    reason: (g.k as string | null) ?? 'unknown',
    count: g.count,
    examples: g.examples,
  }));
  const index = TextIndex.openReadonly(archive.dir);
  const search = index ? { indexed: true, ...index.counts() } : { indexed: false, urls: 0, texts: 0 };
  index?.close();
  const absolute = all(
    `SELECT CASE t.state WHEN 'skipped' THEN 'skipped: ' || t.skip_reason WHEN 'http-error' THEN 'HTTP ' || t.http_status
              WHEN 'failed' THEN 'failed' WHEN 'redirect' THEN 'redirect not followed' ELSE t.state END AS reason,
            f.url AS from_url, t.url AS to_url, COUNT(*) OVER (PARTITION BY t.state, t.skip_reason, t.http_status) AS n,
            ROW_NUMBER() OVER (PARTITION BY t.state, t.skip_reason, t.http_status ORDER BY l.rowid) AS i
     FROM links l JOIN urls t ON t.id = l.to_id JOIN urls f ON f.id = l.from_id
     WHERE l.written IS NULL`,
  );
  const absoluteLinks = new Map<string, { reason: string; count: number; examples: { from: string; to: string }[] }>();
  for (const r of absolute) {
    const reason = r['reason'] as string;
    const g = absoluteLinks.get(reason) ?? { reason, count: Number(r['n']), examples: [] };
    if (Number(r['i']) <= EXAMPLES) g.examples.push({ from: r['from_url'] as string, to: r['to_url'] as string });
    absoluteLinks.set(reason, g);
  }
  return {
    generatedAt: new Date().toISOString(),
    generator: `Harvest/${HARVEST_VERSION}`,
    archiveDir: archive.dir,
    stats: readStats(c),
    scope: {
      mode: job.scope.mode,
      include: job.scope.include,
      exclude: job.scope.exclude,
      offsiteRequisites: job.offsiteRequisites,
      allowNetworks: job.allowNetworks,
      limits: { ...job.limits },
    },
    dates: { createdAt: c.getMeta('created_at'), startedAt: c.getMeta('started_at'), finishedAt: c.getMeta('finished_at') },
    byMimeType: all(
      `SELECT COALESCE(NULLIF(lower(trim(CASE WHEN instr(content_type, ';') > 0 THEN substr(content_type, 1, instr(content_type, ';') - 1) ELSE content_type END)), ''), 'unknown') AS mimeType,
              COUNT(*) AS count, COALESCE(SUM(bytes), 0) AS bytes
       FROM urls WHERE state = 'archived' GROUP BY mimeType ORDER BY count DESC, mimeType`,
    ) as QaReport['byMimeType'],
    skipped: skipped.filter((s) => !s.reason.startsWith('trap:')),
    trapGuards: skipped.filter((s) => s.reason.startsWith('trap:')).map((s) => ({ guard: s.reason.slice(5), count: s.count, examples: s.examples })),
    httpErrors: groups('http_status', "state = 'http-error'").map((g) => ({ status: g.k as number, count: g.count, examples: g.examples })),
    failures,
    robots: {
      policy: readStats(c).robotsPolicy,
      sites: all('SELECT site, http_status AS httpStatus, error, fetched_at AS fetchedAt FROM robots ORDER BY site') as QaReport['robots']['sites'],
    },
    largestFiles: all(
      `SELECT url, content_type AS contentType, bytes FROM urls WHERE state = 'archived' AND bytes IS NOT NULL ORDER BY bytes DESC, id LIMIT ${LARGEST}`,
    ) as QaReport['largestFiles'],
    absoluteLinks: [...absoluteLinks.values()].sort((a, b) => b.count - a.count),
    thumbnails: [],
    checksums: {
      payloadDigests: db.prepare('SELECT COUNT(*) FROM payload_captures').pluck().get() as number,
      algorithm: 'sha256 (WARC-Payload-Digest, base32)',
      warcFiles: await warcFiles(archive.warcDir),
    },
    search,
    metadata: metadataLines(readMetadata(c)),
    analysis: qaSummary(archive, c.currentCapture()),
    imported: importSection(c),
  };
}
