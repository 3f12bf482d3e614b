const WHITESPACE_RUN = /[\t\n\f\r ]+/g;

/** Gathers readable text (anchor text, titles) whitespace-collapsed, keeping only what can be used. */
export class TextCollector {
  private text = '';

  constructor(private readonly maxChars: number) {}

  add(piece: string): void {
    if (this.text.length > this.maxChars) return;
    // Collapsing a bounded prefix keeps a huge text node from costing more than it can contribute.
    this.text += piece.slice(0, this.maxChars * 4).replace(WHITESPACE_RUN, ' ');
  }

  value(): string {
    return this.text.replace(WHITESPACE_RUN, ' ').trim().slice(0, this.maxChars);
  }
}
