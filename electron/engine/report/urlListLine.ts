import type { UrlRecord } from '../../../shared/crawl.js';

/**
 * One URL of the log as `harvest list` prints it (and the app's log download holds it): outcome,
 * HTTP status, URL, local file or why not, tab-separated; a focused harvest's verdict after them.
 */
export function urlListLine(r: UrlRecord): string {
  const verdict = r.topicState
    ? `\t${r.topicState}${r.duplicateOf ? ` of ${r.duplicateOf} (similarity ${r.similarity?.toFixed(2) ?? '-'})` : ''}`
    : '';
  return `${r.state}\t${r.httpStatus ?? ''}\t${r.url}\t${r.localPath ?? r.reason ?? ''}${verdict}`;
}
