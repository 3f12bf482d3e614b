/** The generic complaint; the hints below add the likely fix for the usual slips. */
export const NOT_A_WEB_ADDRESS = 'must be an absolute http:// or https:// URL';

const WEB_SCHEMES = ['http', 'https'] as const;

/** Edits (insert, delete, replace, swap two neighbours) from a to b; small strings only. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** The scheme a slip of the keyboard most likely meant ("htp" → "http"), or null. */
function meantScheme(scheme: string): string | null {
  const s = scheme.toLowerCase();
  if ((WEB_SCHEMES as readonly string[]).includes(s)) return s;
  const near = WEB_SCHEMES.map((w) => ({ w, d: editDistance(s, w) }))// Two slips only when it still starts like one: ftp is not a typo of http.
    .filter((x) => x.d <= 1 || (x.d === 2 && s.startsWith('h'))).sort((x, y) => x.d - y.d);
  return near[0]?.w ?? null;
}

/**
 * Why a seed is not an address Harvest can harvest, with the likely fix for a mistyped one
 * (`htp://`, no scheme, an impossible port); null when it is fine. Shown by the job form and the CLI.
 */
export function seedUrlProblem(text: string): string | null {
  const s = text.trim();
  let parsed: URL | null = null;
  try {
    parsed = new URL(s);
  } catch {
    parsed = null;
  }
  if (parsed !== null && (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '') return null;
  const port = /^(?:[a-z][a-z0-9+.-]*:\/*)?[^/:?#\s]+:([^/?#]*)/i.exec(s)?.[1];
  if (port !== undefined && port !== '' && (!/^\d+$/.test(port) || Number(port) > 65535)) {
    return `${NOT_A_WEB_ADDRESS}: the port number '${port}' cannot be right (ports run from 1 to 65535; leave it out for the site's usual port)`;
  }
  const withScheme = /^([a-z][a-z0-9+.-]*):\/*(.*)$/i.exec(s);
  if (withScheme !== null && /[.]|localhost/i.test(withScheme[2] ?? '') && !/^\d+$/.test((withScheme[2] ?? '').split('/')[0] ?? '')) {
    const scheme = withScheme[1]!;
    const meant = meantScheme(scheme);
    if (meant !== null) return `${NOT_A_WEB_ADDRESS}: did you mean ${meant}://${withScheme[2]}?`;
    return `${NOT_A_WEB_ADDRESS}: Harvest cannot harvest ${scheme}: addresses`;
  }
  if (/^(?:localhost|[^\s/:]+\.[^\s/:]+)(?::\d+)?(?:[/?#]\S*)?$/i.test(s)) return `${NOT_A_WEB_ADDRESS}: did you mean https://${s}?`;
  const noColon = /^(https?)\/\/(.+)$/i.exec(s);
  if (noColon !== null) return `${NOT_A_WEB_ADDRESS}: did you mean ${noColon[1]!.toLowerCase()}://${noColon[2]}?`;
  return NOT_A_WEB_ADDRESS;
}
