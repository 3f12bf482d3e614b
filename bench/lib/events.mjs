// Reading Harvest's --events-jsonl file: live (new lines since the last read) and afterwards (gaps).
import fs from 'node:fs';

/** Returns a function that yields the events appended to `file` since its previous call. */
export function eventTail(file) {
  let offset = 0;
  let rest = '';
  return () => {
    if (!fs.existsSync(file)) return [];
    const size = fs.statSync(file).size;
    if (size <= offset) return [];
    const fd = fs.openSync(file, 'r');
    const buf = Buffer.alloc(size - offset);
    fs.readSync(fd, buf, 0, buf.length, offset);
    fs.closeSync(fd);
    offset = size;
    const lines = (rest + buf.toString('utf8')).split('\n');
    rest = lines.pop() ?? '';
    return lines.filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
  };
}

export function readEvents(file) {
  return fs.existsSync(file) ? eventTail(file)() : [];
}

function quantile(sorted, q) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : null;
}

/** Gaps between consecutive progress events while the crawl ran: what a UI listening to the stream sees. */
export function progressGaps(events, limitMs = 250) {
  const times = events.filter((e) => e.type === 'progress').map((e) => e.t);
  const gaps = [];
  for (let i = 1; i < times.length; i++) gaps.push(times[i] - times[i - 1]);
  const sorted = [...gaps].sort((a, b) => a - b);
  return {
    progressEvents: times.length,
    p50Ms: quantile(sorted, 0.5),
    p99Ms: quantile(sorted, 0.99),
    maxMs: sorted.at(-1) ?? null,
    overLimit: gaps.filter((g) => g > limitMs).length,
    limitMs,
  };
}

/** Request rate over the fetch phase: from the 'running' event to the last URL outcome. */
export function fetchPhase(events) {
  const start = events.find((e) => e.type === 'state' && e.state === 'running')?.t;
  const urls = events.filter((e) => e.type === 'url');
  if (start == null || urls.length === 0) return null;
  return { seconds: (urls.at(-1).t - start) / 1000, urlEvents: urls.length };
}
