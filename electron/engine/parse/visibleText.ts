import { createHash } from 'node:crypto';
import type { DocumentText } from './pageText.js';

/** Without the u flag: the same matches (every white space character is in the BMP), 10% faster. */
const WHITESPACE = /\s+/g;

/**
 * `sha256:<hex>` of a page's visible text (its title and body text, script and style excluded),
 * whitespace-normalised: every run of white space one space, none at either end. Two captures whose
 * digests are equal differ only in markup.
 */
export function textDigest(text: DocumentText): string {
  const normalised = `${text.title} ${text.body}`.replace(WHITESPACE, ' ').trim();
  return `sha256:${createHash('sha256').update(normalised, 'utf8').digest('hex')}`;
}
