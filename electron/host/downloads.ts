import { createReadStream, readdirSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { ZipFile } from 'yazl';
import { reportHtml } from '../engine/report/render.js';
import { urlListLine } from '../engine/report/urlListLine.js';
import type { QaReport } from '../../shared/report.js';
import { archiveReport } from './archiveText.js';
import type { EngineHost } from './engineHost.js';
import { HostError } from './hostError.js';
import { sendText } from './httpGuards.js';

const ATTACHMENT_HEADERS = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

const safeName = (name: string): string => name.replace(/[^\w.-]/g, '_');

/**
 * A finished export as an attachment: a file as it is, a bag folder as one ZIP of it (a browser
 * downloads files, not folders; the bag's own manifests still verify it once unpacked).
 */
export function sendExport(req: IncomingMessage, res: ServerResponse, host: EngineHost, encodedId: string): void {
  let exportId: string;
  try {
    exportId = decodeURIComponent(encodedId);
  } catch {
    return sendText(res, 404, 'not found');
  }
  const file = host.exports.downloadable(exportId);
  if (file === null) return sendText(res, 404, 'no such export file (it may have been moved or deleted)');
  const stat = statSync(file);
  if (stat.isDirectory()) return sendFolderZip(req, res, file);
  res.writeHead(200, {
    ...ATTACHMENT_HEADERS,
    'Content-Type': 'application/octet-stream',
    'Content-Length': String(stat.size),
    'Content-Disposition': `attachment; filename="${safeName(path.basename(file))}"`,
  });
  if (req.method === 'HEAD') return void res.end();
  createReadStream(file).on('error', () => res.destroy()).pipe(res);
}

function sendFolderZip(req: IncomingMessage, res: ServerResponse, dir: string): void {
  res.writeHead(200, {
    ...ATTACHMENT_HEADERS,
    'Content-Type': 'application/zip',
    'Content-Disposition': `attachment; filename="${safeName(path.basename(dir))}.zip"`,
  });
  if (req.method === 'HEAD') return void res.end();
  const zip = new ZipFile();
  const top = path.basename(dir);
  const walk = (abs: string, rel: string): void => {
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      const childAbs = path.join(abs, entry.name);
      const childRel = `${rel}/${entry.name}`;
      // Links are left out: a bag holds its files, and a link could point outside it.
      if (entry.isDirectory()) walk(childAbs, childRel);
      else if (entry.isFile()) zip.addFile(childAbs, childRel);
    }
  };
  try {
    walk(dir, top);
  } catch {
    return void res.destroy();
  }
  zip.outputStream.on('error', () => res.destroy()).pipe(res);
  zip.end();
}

/** Rows read from the catalogue at a time: a million-URL log streams without being held whole. */
const LOG_PAGE_ROWS = 5_000;

/**
 * The job's URL log as a text file, a line per URL as `harvest list` prints it. Paged through the
 * job service, so a running crawl's log is read from the crawl's own catalogue connection.
 */
export async function sendUrlLog(req: IncomingMessage, res: ServerResponse, host: EngineHost, encodedId: string): Promise<void> {
  let id: string;
  try {
    id = decodeURIComponent(encodedId);
    host.jobs.get(id);
  } catch {
    return sendText(res, 404, 'no such job');
  }
  res.writeHead(200, {
    ...ATTACHMENT_HEADERS,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Disposition': `attachment; filename="url-log-${safeName(id)}.txt"`,
  });
  if (req.method === 'HEAD') return void res.end();
  try {
    for (let offset = 0; ; offset += LOG_PAGE_ROWS) {
      const page = await host.jobs.query(id, { kind: 'urls', offset, limit: LOG_PAGE_ROWS });
      if (page.rows.length === 0) break;
      const chunk = page.rows.map((r) => urlListLine(r) + '\n').join('');
      // A reader that goes away never drains: its close ends the wait too.
      if (!res.write(chunk)) await new Promise<void>((resolve) => {
        const done = (): void => {
          res.off('drain', done).off('close', done);
          resolve();
        };
        res.on('drain', done).on('close', done);
      });
      if (res.destroyed) return;
    }
    res.end();
  } catch {
    // The status is sent: a cut-short file is all that can say so.
    res.destroy();
  }
}

/** The archive's QA report as the self-contained HTML file `harvest report --format html` writes. */
export async function sendReport(req: IncomingMessage, res: ServerResponse, host: EngineHost, encodedId: string): Promise<void> {
  let id: string;
  try {
    id = decodeURIComponent(encodedId);
  } catch {
    return sendText(res, 404, 'not found');
  }
  let report: QaReport;
  try {
    report = await archiveReport(host.jobs, id);
  } catch (e) {
    return sendText(res, e instanceof HostError && e.code === 'not-found' ? 404 : 409, e instanceof Error ? e.message : String(e));
  }
  const body = Buffer.from(reportHtml(report));
  res.writeHead(200, {
    ...ATTACHMENT_HEADERS,
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': String(body.length),
    'Content-Disposition': `attachment; filename="qa-report-${safeName(id)}.html"`,
    // The report is meant to be opened as a file: never as a page of the app's origin.
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
