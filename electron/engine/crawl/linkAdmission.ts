import type { Catalogue, LinkRow, QueuedRow } from '../store/catalogue.js';
import { ReferenceMemo } from './documents.js';
import type { DocumentPool, PreparedTicket } from './documentPool.js';
import type { Frontier } from './frontier.js';

/** A focused harvest's plan for one of a page's links, by its index: its queue score, or pruned. */
export type LinkPlan = (index: number) => { score: number; pruned: boolean } | null;

/**
 * The most links one page adds to the queue; those past it are recorded as skipped
 * (limit:links-per-page) unless the URL is already known. Every reference is still rewritten.
 */
export const MAX_LINKS_QUEUED_PER_PAGE = 10_000;

/** A parsed document's links into the frontier, and where its saved copy's references should point. */
export class LinkAdmission {
  private readonly memo = new ReferenceMemo();

  constructor(
    private readonly catalogue: Catalogue,
    private readonly frontier: Frontier,
    private readonly documents: DocumentPool,
  ) {}

  /**
   * Admits a parsed document's links in one transaction. For a copy to be saved (`keep` false the
   * worker forgets the document) it returns where each reference should point and the link rows
   * that the finishing pass checks.
   */
  admit(row: QueuedRow, doc: PreparedTicket, keep = false, plan: LinkPlan | null = null): { written: (string | null)[]; links: LinkRow[] } {
    const { catalogue: c, frontier, documents } = this;
    const written: (string | null)[] = [];
    const links: LinkRow[] = [];
    let kept = false;
    try {
      const inScope = frontier.scope.inScope(row.url);
      c.transaction(() => {
        for (const [index, link] of doc.links.entries()) {
          const planned = plan === null ? null : plan(index);
          const target =
            link.canonical === null
              ? null
              : frontier.admit({
                  ...(planned !== null && { score: planned.score, pruned: planned.pruned }),
                  url: link.canonical,
                  parentId: row.id,
                  parentDepth: row.depth,
                  sameDepth: false,
                  via: link.kind,
                  requisite: link.requisite,
                  parentInScope: inScope,
                  typeHint: link.typeHint,
                  redirectHops: 0,
                  pastLinkCap: index >= MAX_LINKS_QUEUED_PER_PAGE,
                });
          if (!keep) continue;
          const place = target === null ? null : this.memo.plannedTarget(target, link.typeHint);
          // An archived target's file is final, so a reference to it never needs redoing.
          if (target !== null && target.state !== 'archived') {
            links.push({ toId: target.id, kind: link.kind, text: link.text || null, written: place });
          }
          written.push(place);
        }
      });
      kept = keep;
    } finally {
      if (!kept) documents.discard(doc);
    }
    return { written, links };
  }
}
