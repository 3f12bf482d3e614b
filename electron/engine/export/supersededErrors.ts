import { createOutput, finish, readLines, writeChunk } from './lines.js';

/** What the filter needs of a CDXJ line's JSON. */
interface LineFields {
  url: string;
  status: number | null;
  method: string | undefined;
}

/**
 * Copies a sorted CDXJ index, leaving out each error line (HTTP status 400 or above) that a later
 * line of the same URL and method, in the same capture, answers with a success (below 400): a URL
 * the crawl got an error for and then fetched again, by a retry or by `harvest patch`. Replay tools
 * look a resource up by time alone, ReplayWeb.page taking the first record at or after the page's
 * time, so the earlier error, being nearer the page, would hide the success. The record stays in
 * the WARC files with its own date; only the index, which tells replay tools what the capture holds
 * for a URL, names the success instead. A capture is the span from its start (14 digits, as the
 * index's times) to the next one's. Lines of one SURT key are adjacent in a sorted index and
 * ordered by time, so only one key's lines are held at a time. Returns how many lines were left out.
 */
export async function dropSupersededErrors(
  sortedIn: string,
  outFile: string,
  captureStarts: readonly string[],
  signal?: AbortSignal,
): Promise<number> {
  const starts = [...captureStarts].sort();
  const captureAt = (ts: string): number => {
    let n = 0;
    while (n < starts.length && starts[n]! <= ts) n++;
    return n;
  };
  const out = createOutput(outFile);
  let dropped = 0;
  let key = '';
  let group: string[] = [];
  const flush = async (): Promise<void> => {
    const kept = group.length > 1 ? keepLines(group, captureAt) : group;
    dropped += group.length - kept.length;
    if (kept.length > 0) await writeChunk(out, kept.join('\n') + '\n');
    group = [];
  };
  try {
    for await (const line of readLines(sortedIn)) {
      if (line === '') continue;
      const lineKey = line.slice(0, line.indexOf(' '));
      if (lineKey !== key) {
        signal?.throwIfAborted();
        await flush();
        key = lineKey;
      }
      group.push(line);
    }
    await flush();
  } finally {
    await finish(out);
  }
  return dropped;
}

/** One key's lines (in time order) without the errors a later success of theirs supersedes. */
function keepLines(lines: readonly string[], captureAt: (ts: string) => number): string[] {
  const parsed = lines.map((line) => ({ line, ts: line.split(' ', 2)[1] ?? '', fields: fieldsOf(line) }));
  return parsed
    .filter((a, i) => {
      if (a.fields === null || a.fields.status === null || a.fields.status < 400) return true;
      const { url, method } = a.fields;
      const capture = captureAt(a.ts);
      const supersededBy = parsed.slice(i + 1).find(
        (b) =>
          b.fields !== null &&
          b.fields.url === url &&
          b.fields.method === method &&
          b.fields.status !== null &&
          b.fields.status < 400 &&
          b.ts > a.ts &&
          captureAt(b.ts) === capture,
      );
      return supersededBy === undefined;
    })
    .map((p) => p.line);
}

function fieldsOf(line: string): LineFields | null {
  try {
    const json = JSON.parse(line.slice(line.indexOf(' {') + 1)) as Record<string, unknown>;
    if (typeof json['url'] !== 'string') return null;
    const status = Number(json['status']);
    return {
      url: json['url'],
      status: json['status'] === undefined || !Number.isFinite(status) ? null : status,
      method: typeof json['method'] === 'string' ? json['method'] : undefined,
    };
  } catch {
    return null;
  }
}
