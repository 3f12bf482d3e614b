/** One section of the QA report as a plain-text table: the Markdown and HTML renderers draw the same ones. */
export interface Table {
  title: string;
  note?: string;
  head: string[];
  rows: string[][];
  empty: string;
}
