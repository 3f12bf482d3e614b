import type { Job } from '../../../shared/job.js';
import type { FetchResponse } from '../fetch/fetcher.js';
import type { Catalogue, FetchOutcome, QueuedRow, UrlCapture } from '../store/catalogue.js';
import { canonicalize } from '../url/canonical.js';
import type { Seen } from './captureFacts.js';
import type { Frontier } from './frontier.js';
import type { OutcomeLog } from './outcomeLog.js';

/**
 * A 3xx with a Location: its target admitted to the frontier as the next hop of the chain (unless
 * unusable or one hop too many, which the outcome's error says), and the redirect recorded with it,
 * in one transaction.
 */
export function recordRedirect(
  p: { job: Job; catalogue: Catalogue; frontier: Frontier; log: OutcomeLog },
  row: QueuedRow,
  res: FetchResponse,
  prev: UrlCapture | undefined,
  seen: Seen,
): void {
  const { catalogue: c, frontier, job } = p;
  const target = canonicalize(res.location!, row.url);
  const hops = row.redirect_hops + 1;
  c.transaction(() => {
    let targetId: number | null = null;
    let error: string | null = null;
    if (target === null) error = `unusable redirect target: ${res.location!.slice(0, 200)}`;
    else if (hops > job.fetch.maxRedirects) error = `more than ${job.fetch.maxRedirects} redirects`;
    else {
      // Seeds and their redirect chains are the only URLs at depth 0.
      if (row.depth === 0) frontier.followSeedRedirect(target);
      targetId = frontier.admit({
        url: target,
        parentId: row.id,
        parentDepth: row.depth,
        sameDepth: true,
        via: 'redirect',
        requisite: row.requisite === 1,
        parentInScope: frontier.scope.inScope(row.url),
        typeHint: row.type_hint,
        redirectHops: hops,
        // A hop keeps its source's place in a focused harvest's queue.
        ...(row.score != null && { score: row.score }),
      }).id;
    }
    const outcome: FetchOutcome = {
      state: 'redirect',
      httpStatus: res.status,
      contentType: res.contentType,
      bytes: res.body.length,
      localPath: null,
      redirectToId: targetId,
      error,
      title: null,
    };
    p.log.record(row, outcome, prev, seen);
  });
}
