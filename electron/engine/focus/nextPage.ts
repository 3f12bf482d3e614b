/**
 * "Next page" links by their anchor text: the text itself is one of the labels, give or take the
 * arrows and punctuation around it ("Next »", "下一页 >", "[suivant]").
 */
const AROUND = /^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu;

function normal(s: string): string {
  return s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

export class NextPageLabels {
  private readonly labels: Set<string>;

  constructor(labels: readonly string[]) {
    this.labels = new Set(labels.map(normal));
  }

  matches(anchorText: string): boolean {
    const text = normal(anchorText);
    if (text === '' || text.length > 40) return false;
    if (this.labels.has(text)) return true;
    const bare = text.replace(AROUND, '');
    return bare !== '' && this.labels.has(bare);
  }
}
