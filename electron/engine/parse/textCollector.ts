const WHITESPACE_RUN = /[\t\n\f\r ]+/g;

/** Text as a reader sees it: whitespace runs collapsed, trimmed, at most maxChars long. */
export function collapseText(text: string, maxChars: number): string {
  return text.replace(WHITESPACE_RUN, ' ').trim().slice(0, maxChars);
}

/** Gathers readable text (anchor text, titles) across text nodes, keeping only what can be used. */
export class TextCollector {
  private text = '';

  constructor(private readonly maxChars: number) {}

  add(piece: string): void {
    if (this.text.length > this.maxChars) return;
    // Collapsing a bounded prefix keeps a huge text node from costing more than it can contribute.
    this.text += piece.slice(0, this.maxChars * 4).replace(WHITESPACE_RUN, ' ');
  }

  value(): string {
    return collapseText(this.text, this.maxChars);
  }
}
