import { WarcError } from './errors.js';

/** One `Name: value` line of a WARC header, an HTTP header block or an application/warc-fields block. */
export type Field = readonly [name: string, value: string];

/** `Name: value\r\n` lines. A CR or LF inside a field would end it early and corrupt the record. */
export function fieldLines(fields: readonly Field[]): string {
  let out = '';
  for (const [name, value] of fields) {
    if (/[\r\n]/.test(name) || /[\r\n]/.test(value) || name.includes(':') || name === '') {
      throw new WarcError('invalid', `cannot write field ${JSON.stringify(name)}: ${JSON.stringify(value.slice(0, 80))}`);
    }
    out += `${name}: ${value}\r\n`;
  }
  return out;
}

/**
 * The named fields of a WARC record head (`WARC/1.1\r\n` then fields, ending at the first blank
 * line), by lowercased name, first occurrence kept. null when the text holds no complete head.
 */
export function parseWarcHead(text: string): Map<string, string> | null {
  const end = text.indexOf('\r\n\r\n');
  if (!text.startsWith('WARC/') || end < 0) return null;
  const fields = new Map<string, string>();
  for (const line of text.slice(0, end).split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!fields.has(name)) fields.set(name, line.slice(colon + 1).trim());
  }
  return fields;
}

/** How a revisit names its original: by record id when it has one, else by target URI and date. */
export function originalKeys(head: Map<string, string>): string[] {
  const keys: string[] = [];
  const id = head.get('warc-refers-to');
  if (id) keys.push(`id ${id}`);
  const uri = head.get('warc-refers-to-target-uri');
  const date = head.get('warc-refers-to-date');
  if (uri && date) keys.push(`at ${uri} ${date}`);
  return keys;
}

/** The keys a record is found by, as originalKeys names them. */
export function recordKeys(head: Map<string, string>): string[] {
  const keys: string[] = [];
  const id = head.get('warc-record-id');
  if (id) keys.push(`id ${id}`);
  const uri = head.get('warc-target-uri');
  const date = head.get('warc-date');
  if (uri && date) keys.push(`at ${uri} ${date}`);
  return keys;
}
