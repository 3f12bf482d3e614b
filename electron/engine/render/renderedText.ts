import * as cheerio from 'cheerio';
import type { parseDocument } from 'htmlparser2';

/** cheerio's nodes are domhandler's, the types htmlparser2 (a dependency of its own) exports. */
type AnyNode = ReturnType<typeof parseDocument>['children'][number];

/** Elements whose text a reader never sees. */
const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'head']);

/**
 * The words a rendered page shows, from its serialized DOM, whitespace collapsed. Text nodes are
 * joined with a space, so "<h1>Outside</h1><p>reached</p>" is two words, not one. The reference and
 * the copy both go through this, so whatever it leaves out it leaves out of both.
 */
export function visibleText(html: string): string {
  const parts: string[] = [];
  const walk = (nodes: AnyNode[]): void => {
    for (const n of nodes) {
      if (n.type === 'text') parts.push(n.data);
      else if ('children' in n && !('name' in n && HIDDEN.has(n.name))) walk(n.children);
    }
  };
  walk(cheerio.load(html)('body').toArray());
  return parts.join(' ').normalize('NFKC').replace(/\s+/g, ' ').trim();
}
