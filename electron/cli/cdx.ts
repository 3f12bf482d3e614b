import { parseArgs } from 'node:util';
import { CDX_SORTS, cdxjLine, cdxLines, CdxQueryError, MATCH_TYPES, type CdxSort, type MatchType } from '../engine/cdx/cdxQuery.js';
import { Archive } from '../engine/store/archive.js';
import { UsageError } from './usage.js';

/**
 * `harvest cdx <archive-dir> <url> [--match exact|prefix|host|domain] [--sort reverse|closest --closest ts] [--from ts] [--to ts] [--limit n] [--json]`:
 * the captures of a URL as pywb's CDX server lists them, CDXJ lines or (--json) one object a line.
 */
export async function runCdx(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { match: { type: 'string' }, sort: { type: 'string' }, closest: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' } },
    });
  } catch (e) {
    throw new UsageError((e as Error).message, 'cdx');
  }
  const { values: v, positionals } = parsed;
  if (positionals.length !== 2) throw new UsageError('cdx needs an <archive-dir> and a <url>', 'cdx');
  const match = v.match ?? 'exact';
  if (!(MATCH_TYPES as readonly string[]).includes(match)) throw new UsageError(`--match must be one of ${MATCH_TYPES.join(', ')}`, 'cdx');
  const sort = v.sort ?? 'default';
  if (!(CDX_SORTS as readonly string[]).includes(sort)) throw new UsageError(`--sort must be one of ${CDX_SORTS.join(', ')}`, 'cdx');
  const limit = v.limit === undefined ? undefined : Number(v.limit);
  if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) throw new UsageError('--limit must be a positive whole number', 'cdx');
  const archive = Archive.open(positionals[0]!, { readonly: true });
  try {
    const lines = cdxLines(archive.catalogue, {
      url: positionals[1]!,
      match: match as MatchType,
      sort: sort as CdxSort,
      ...(v.closest !== undefined && { closest: v.closest }),
      ...(v.from !== undefined && { from: v.from }),
      ...(v.to !== undefined && { to: v.to }),
      ...(limit !== undefined && { limit }),
    });
    for (const l of lines) process.stdout.write((v.json ? JSON.stringify(l) : cdxjLine(l)) + '\n');
  } catch (e) {
    if (e instanceof CdxQueryError) throw new UsageError(e.message, 'cdx');
    throw e;
  } finally {
    archive.close();
  }
  return 0;
}
