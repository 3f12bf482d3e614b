import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { CdxLine } from '../engine/cdx/cdxQuery.js';
import { WARC_DIR } from '../engine/store/archiveFolder.js';
import { WarcError } from '../engine/warc/errors.js';
import { readResponsePayload } from '../engine/warc/readResponse.js';
import { readRecordView } from '../engine/warc/recordView.js';
import { CDX_MAX_LINES } from './archiveQueries.js';
import type { EngineHost } from './engineHost.js';
import { HostError } from './hostError.js';
import { sendText } from './httpGuards.js';

/**
 * Memento (RFC 7089) for one archive on `harvest serve`, under the token, from the same captures as
 * the CDX API: `timemap/<job>/<url>` (application/link-format), `timegate/<job>/<url>` (302 to the
 * memento nearest Accept-Datetime, the latest without one) and `memento/<job>/<14 digits>id_/<url>`,
 * the archived payload as recorded (its Content-Type and Content-Encoding), with Memento-Datetime
 * and Link. A memento is someone else's file on the app's own origin, so it is sent in a CSP
 * sandbox that runs no script and loads nothing.
 */
export const MEMENTO_SEGMENTS = ['timemap', 'timegate', 'memento'] as const;
export type MementoSegment = (typeof MEMENTO_SEGMENTS)[number];

export async function sendMemento(req: IncomingMessage, res: ServerResponse, host: EngineHost, base: string, kind: MementoSegment, tail: string): Promise<void> {
  const slash = tail.indexOf('/');
  if (slash <= 0) return sendText(res, 404, 'not found');
  const jobId = decodeURIComponent(tail.slice(0, slash));
  let rest = tail.slice(slash + 1);
  let wanted: string | null = null;
  if (kind === 'memento') {
    const m = /^(\d{14})id_\/(.+)$/.exec(rest);
    if (!m) return sendText(res, 404, 'a memento is memento/<job>/<yyyyMMddHHmmss>id_/<url>');
    wanted = m[1]!;
    rest = m[2]!;
  }
  let lines: CdxLine[];
  try {
    const answer = await host.jobs.query(jobId, { kind: 'cdx', url: rest, match: 'exact', limit: CDX_MAX_LINES });
    if ('error' in answer) return sendText(res, 400, answer.error);
    lines = answer.lines.sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0));
  } catch (e) {
    if (e instanceof HostError && e.code === 'not-found') return sendText(res, 404, e.message);
    throw e;
  }
  if (lines.length === 0) return sendText(res, 404, `no capture of ${rest} in this archive`);
  const original = lines[0]!.url;
  const at = (k: MementoSegment, ts?: string) => `${base}${k}/${encodeURIComponent(jobId)}/${ts === undefined ? '' : `${ts}id_/`}${original}`;
  const links = [`<${original}>; rel="original"`, `<${at('timegate')}>; rel="timegate"`, `<${at('timemap')}>; rel="timemap"; type="application/link-format"`];
  if (kind === 'timemap') {
    const body = [
      `<${original}>; rel="original"`,
      `<${at('timegate')}>; rel="timegate"`,
      `<${at('timemap')}>; rel="self"; type="application/link-format"; from="${httpDate(lines[0]!.timestamp)}"; until="${httpDate(lines.at(-1)!.timestamp)}"`,
      ...lines.map((l, i) => `<${at('memento', l.timestamp)}>; rel="${relOf(i, lines.length)}"; datetime="${httpDate(l.timestamp)}"`),
    ].join(',\n');
    res.writeHead(200, { 'Content-Type': 'application/link-format', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
    return void res.end(req.method === 'HEAD' ? undefined : body + '\n');
  }
  if (kind === 'timegate') {
    const asked = req.headers['accept-datetime'] as string | undefined;
    const when = asked === undefined ? null : Date.parse(asked);
    if (when !== null && Number.isNaN(when)) return sendText(res, 400, 'Accept-Datetime must be an HTTP date (RFC 1123)');
    const best = when === null ? lines.at(-1)! : nearest(lines, when);
    res.writeHead(302, { Location: at('memento', best.timestamp), Vary: 'accept-datetime', Link: links.join(', '), 'Cache-Control': 'no-store' });
    return void res.end();
  }
  const line = lines.find((l) => l.timestamp === wanted) ?? nearest(lines, tsMs(wanted!));
  if (line.timestamp !== wanted) return sendText(res, 302, 'nearest memento', { Location: at('memento', line.timestamp), Link: links.join(', ') });
  const place = { file: line.filename, offset: Number(line.offset), length: Number(line.length) };
  const dir = path.join(host.jobs.get(jobId).archiveDir, WARC_DIR);
  let payload: Buffer;
  try {
    payload = await readResponsePayload(dir, place);
  } catch (e) {
    if (e instanceof WarcError) return sendText(res, 502, e.message);
    throw e;
  }
  const headers = (await readRecordView(dir, place))?.headers ?? [];
  const header = (name: string) => headers.find(([n]) => n.toLowerCase() === name)?.[1];
  res.writeHead(Number(line.status) || 200, {
    'Content-Type': header('content-type') ?? 'application/octet-stream',
    ...(header('content-encoding') !== undefined && { 'Content-Encoding': header('content-encoding') }),
    'Content-Length': String(payload.length),
    'Memento-Datetime': httpDate(line.timestamp),
    Link: [...links, `<${at('memento', line.timestamp)}>; rel="memento"; datetime="${httpDate(line.timestamp)}"`].join(', '),
    'Content-Security-Policy': "sandbox; default-src 'none'",
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  });
  res.end(req.method === 'HEAD' ? undefined : payload);
}

function relOf(i: number, n: number): string {
  if (n === 1) return 'first last memento';
  return i === 0 ? 'first memento' : i === n - 1 ? 'last memento' : 'memento';
}

function tsMs(ts: string): number {
  return Date.UTC(+ts.slice(0, 4), +ts.slice(4, 6) - 1, +ts.slice(6, 8), +ts.slice(8, 10), +ts.slice(10, 12), +ts.slice(12, 14));
}

function httpDate(ts: string): string {
  return new Date(tsMs(ts)).toUTCString();
}

/** The capture nearest `ms`, the earlier of two as near. */
function nearest(lines: readonly CdxLine[], ms: number): CdxLine {
  let best = lines[0]!;
  for (const l of lines) if (Math.abs(tsMs(l.timestamp) - ms) < Math.abs(tsMs(best.timestamp) - ms)) best = l;
  return best;
}
