import { formatCount, formatDuration } from './format.js';
import { ADAPTIVE_DELAY_FLOOR_MS, type Job } from './job.js';

type Politeness = Pick<Job['politeness'], 'perHostConnections' | 'delayMs'>;

/**
 * What a politeness setting does to a host's request rate, in words, for the reply to a live
 * change (`harvest control`, the app's live control). A host gate lets a request start only when a
 * connection is free and the delay since the last start has passed, so the delay caps a host at
 * 1000/delay requests per second whatever the connections: more connections speed a host up only
 * where its responses take longer than connections × delay. The adaptive delay waits twice the
 * last response time after the last start, so a host rarely has a second request in flight.
 */

/** `4`, `3.3`, `0.5`: requests per second for a gap of `delayMs` between starts. */
function perSecond(delayMs: number): string {
  const r = 1000 / delayMs;
  return r >= 10 ? formatCount(r) : String(Math.round(r * 10) / 10);
}

/** A span short enough to say in ms (`1,500 ms`), else in words (`12 s`). */
const span = (ms: number) => (ms < 10_000 ? `${formatCount(ms)} ms` : formatDuration(ms));

const connectionsText = (n: number) => `${n} connection${n === 1 ? '' : 's'} per host`;
const delayText = (d: number | null) => (d === null ? 'adaptive delay' : d === 0 ? 'no delay between requests' : `${formatCount(d)} ms between requests`);

/** Which limit holds a host's rate under `p`, and what that means: the second half of the reply. */
export function rateLimitSentence(p: Politeness, still = false): string {
  const c = p.perHostConnections;
  const d = p.delayMs;
  const s = still ? ' still' : '';
  if (d === null) {
    const cap = `about one request at a time, at least ${ADAPTIVE_DELAY_FLOOR_MS} ms apart (at most ${perSecond(ADAPTIVE_DELAY_FLOOR_MS)} requests/s, fewer when it answers slowly)`;
    return c === 1
      ? `the adaptive delay${s} limits each host to ${cap}`
      : `the adaptive delay (twice a host's last response time)${s} limits each host to ${cap}, so the ${c} connections are not all used: set a fixed delay for them to count`;
  }
  if (d === 0) return `nothing spaces the requests, so the connections limit each host: up to ${c} request${c === 1 ? '' : 's'} at a time`;
  if (c === 1) return `each host gets one request at a time, at least ${formatCount(d)} ms apart (at most ${perSecond(d)} requests/s)`;
  return `the ${formatCount(d)} ms delay between requests${s} limits each host to ${perSecond(d)} requests/s; the ${c} connections limit it only where a response takes longer than ${span(c * d)}`;
}

/**
 * The reply to a change from `before` to `after`, saying what is in force and what it does:
 * `now 6 connections per host; the 250 ms delay between requests still limits each host to 4 requests/s; …`.
 */
export function controlEffect(before: Politeness, after: Politeness): string {
  const connectionsChanged = before.perHostConnections !== after.perHostConnections;
  const delayChanged = before.delayMs !== after.delayMs;
  const parts: string[] = [];
  if (connectionsChanged || !delayChanged) parts.push(connectionsText(after.perHostConnections));
  if (delayChanged || !connectionsChanged) parts.push(delayText(after.delayMs));
  // The delay was the limit before and the change touched only the connections: nothing goes faster.
  const still = connectionsChanged && !delayChanged && after.delayMs !== 0;
  return `now ${parts.join(', ')}; ${rateLimitSentence(after, still)}`;
}
