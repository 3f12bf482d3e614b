import { findCssRefs, cssString, type CssRef } from './cssScan.js';
import { decodeText, sniffCharset } from './decode.js';
import { isCandidateRef } from './resolve.js';
import { newSlot, renderFields, resolveSlots, singleRefField, type Field, type RefSlot } from './splice.js';
import type { ParsedDoc } from './types.js';

export { findCssRefs, type CssRef };

/** Where CSS Syntax looks for the rule's end, as the sniffer does. */
const CHARSET_RULE_WINDOW = 1024;

/** The label span of a leading `@charset "label";` in decoded text, which must say utf-8 once re-encoded. */
function charsetRuleLabel(css: string): { start: number; end: number } | null {
  const open = '@charset "';
  if (!css.startsWith(open)) return null;
  const end = css.slice(0, CHARSET_RULE_WINDOW).indexOf('";', open.length);
  return end < 0 ? null : { start: open.length, end };
}

/** Parses a stylesheet: its url() and @import references become links (all requisite). */
export function parseCss(body: Buffer, docUrl: string, headerContentType: string | null): ParsedDoc {
  const charset = sniffCharset(body, headerContentType, 'css');
  const css = decodeText(body, charset);
  const fields: Field[] = [];
  const slots: RefSlot[] = [];

  const label = charsetRuleLabel(css);
  if (label !== null) fields.push({ type: 'text', ...label, text: 'utf-8' });
  for (const ref of findCssRefs(css)) {
    if (!isCandidateRef(ref.raw)) continue;
    const slot = newSlot(ref.raw, ref.kind, true, ref.kind === 'css-import' ? 'css' : null, 'UTF-8');
    slots.push(slot);
    fields.push(singleRefField(ref.start, ref.end, slot, cssString));
  }

  const links = resolveSlots(slots, docUrl, docUrl);
  return {
    charset,
    title: null,
    links,
    render: (map) => Buffer.from(renderFields(css, fields, links, map), 'utf8'),
  };
}
