import type { parseDocument } from 'htmlparser2';

/** cheerio's nodes are domhandler's, the types htmlparser2 (a dependency of its own) exports. */
export type DomNode = ReturnType<typeof parseDocument>['children'][number];
export type Element = Extract<DomNode, { name: string; children: unknown[] }>;

/** An element (domhandler types <script> and <style> apart). */
export function isElement(n: DomNode): n is Element {
  return n.type === 'tag' || n.type === 'script' || n.type === 'style';
}

/** All the text under a node, as the DOM's textContent. */
export function textOf(node: DomNode): string {
  if (node.type === 'text') return node.data;
  return isElement(node) ? node.children.map(textOf).join('') : '';
}

/** Every element under `nodes`, in document order. */
export function* elementsOf(nodes: readonly DomNode[]): Generator<Element> {
  for (const n of nodes) {
    if (!isElement(n)) continue;
    yield n;
    yield* elementsOf(n.children);
  }
}
