import type { IncomingMessage, ServerResponse } from 'node:http';
import { CDX_SORTS, cdxjLine, MATCH_TYPES, type CdxSort, type MatchType } from '../engine/cdx/cdxQuery.js';
import { CDX_MAX_LINES } from './archiveQueries.js';
import type { EngineHost } from './engineHost.js';
import { HostError } from './hostError.js';
import { sendText } from './httpGuards.js';

/**
 * The CDX server API of one archive on `harvest serve`, under the app's token:
 * `cdx/<job-id>?url=…&matchType=exact|prefix|host|domain&sort=reverse|closest&closest=…&from=…&to=…&limit=…&output=json`, with
 * pywb's parameters and field names (a URL ending in `*` is a prefix query, as in pywb). CDXJ lines
 * as text/plain, or one JSON object a line with output=json. Answered from the catalogue, by the
 * running crawl's worker when there is one (see archiveQueries.ts).
 */
export async function sendCdx(req: IncomingMessage, res: ServerResponse, host: EngineHost, encodedJobId: string): Promise<void> {
  let jobId: string;
  try {
    jobId = decodeURIComponent(encodedJobId);
  } catch {
    return sendText(res, 404, 'not found');
  }
  const params = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
  let url = params.get('url');
  if (url === null || url === '') return sendText(res, 400, 'the url parameter is required');
  let match = params.get('matchType') ?? 'exact';
  if (url.endsWith('*') && !params.has('matchType')) {
    url = url.slice(0, -1);
    match = 'prefix';
  }
  if (!(MATCH_TYPES as readonly string[]).includes(match)) return sendText(res, 400, `matchType must be one of ${MATCH_TYPES.join(', ')}`);
  const limit = params.has('limit') ? Number(params.get('limit')) : CDX_MAX_LINES;
  if (!Number.isInteger(limit) || limit < 1) return sendText(res, 400, 'limit must be a positive whole number');
  const sort = params.get('sort') ?? 'default';
  if (!(CDX_SORTS as readonly string[]).includes(sort)) return sendText(res, 400, `sort must be one of ${CDX_SORTS.join(', ')}`);
  const closest = params.get('closest');
  const from = params.get('from');
  const to = params.get('to');
  let answer;
  try {
    answer = await host.jobs.query(jobId, {
      kind: 'cdx',
      url,
      match: match as MatchType,
      sort: sort as CdxSort,
      ...(closest !== null && { closest }),
      limit: Math.min(limit, CDX_MAX_LINES),
      ...(from !== null && { from }),
      ...(to !== null && { to }),
    });
  } catch (e) {
    if (e instanceof HostError && e.code === 'not-found') return sendText(res, 404, e.message);
    throw e;
  }
  if ('error' in answer) return sendText(res, 400, answer.error);
  const json = params.get('output') === 'json';
  const body = answer.lines.map((l) => (json ? JSON.stringify(l) : cdxjLine(l)) + '\n').join('');
  res.writeHead(200, { 'Content-Type': json ? 'text/x-ndjson; charset=utf-8' : 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  res.end(req.method === 'HEAD' ? undefined : body);
}
