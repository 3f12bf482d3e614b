// Markdown tables, Harvest's ratios to each peer and to the issue's targets, and comparison with an earlier run.
import { renderSummary } from '../render.mjs';
import { round } from './measure.mjs';
import { realSitesKeyFigures, realSitesMarkdown, realSitesTargets } from './realSitesReport.mjs';
const f = (x, d = 0) => (x == null ? '–' : typeof x === 'number' ? x.toLocaleString('en-US', { maximumFractionDigits: d }) : String(x));
const ratio = (a, b) => (a == null || b == null || b === 0 ? null : Math.round((a / b) * 100) / 100);
const pct = (a, b) => (a == null || b == null || b === 0 ? null : Math.round((a / b) * 1000) / 10);

function crawlTable(rows) {
  const out = [
    '| crawler | wall s | ended | site done at s | HTML 200 (site) | HTML/s | requests | req/s | dup URL req | peak RSS MiB | CPU s | disk MiB | pages / assets on disk | links escaping / broken |',
    '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
  ];
  for (const r of rows) {
    const c = r.coverage;
    const L = r.links;
    out.push(
      `| ${r.name} | ${f(r.wallSeconds, 1)} | ${r.ended} | ${f(r.siteDoneSeconds, 1)} | ${f(r.html200)} (${f(r.html200NonTrap)}) | ${f(r.htmlPerSec, 1)} | ${f(r.requests)} | ${f(r.requestsPerSec, 1)} | ${f(r.duplicateRequests)} | ${f(r.maxRssMiB, 1)} | ${f(r.cpuSeconds, 1)} | ${f(r.diskMiB, 1)} | ` +
        (c ? `${c.pagesPct}% / ${c.assetsPct}%` : r.linkcheckError ? 'linkcheck failed' : 'not checked') +
        ' | ' +
        (L ? `${f(L.escaped)} (${L.escapedPct}%) / ${f(L.broken)} (${L.brokenPct}%)` : '–') +
        ' |',
    );
  }
  return out;
}

/** Harvest's ratio to each peer: wall time, and time to fetch the site (the server's "site done at"). */
function peerRatios(s) {
  return s.peers.map((p) => {
    const wall = ratio(s.harvest.wallSeconds, p.wallSeconds);
    const siteDone = ratio(s.harvest.siteDoneSeconds, p.siteDoneSeconds);
    return { peer: p.name, peerEnded: p.ended, wall, siteDone, text: `${p.name}: wall ${f(wall, 2)}× (${p.ended === 'cap' ? 'peer stopped by the cap, so an upper bound' : 'peer finished'}), site fetched ${f(siteDone, 2)}×` };
  });
}

/**
 * Each target with the measured figure and whether it is met: the speed issue's (21) where it set
 * one, the first bench issue's (5) where it did not.
 */
export function targets(results) {
  const t = [];
  const add = (scenario, target, value, met) => t.push({ scenario, target, value, met });
  const s1 = results.scenarios['1'];
  if (s1) {
    const h = s1.harvest;
    const finished = h.ended === 'finished';
    const fl = s1.floor;
    if (fl && !fl.error) {
      const r = ratio(cpuPerRequest(h), cpuPerRequest(fl));
      add('1', "CPU per request ≤ 2× the floor's", `${f(r, 2)}× (${f(cpuPerRequest(h), 2)} vs ${f(cpuPerRequest(fl), 2)} ms)`, r != null && r <= 2);
    }
    for (const p of s1.peers) {
      if (p.name === 'wget-guarded') {
        const r = ratio(h.wallSeconds, p.wallSeconds);
        add('1', "finished, rewritten mirror in ≤ 1.0× wget-guarded's wall time", `${f(r, 2)}× (${f(h.wallSeconds, 1)} s vs ${f(p.wallSeconds, 1)} s, ${p.name} ${p.ended})`, finished && r != null && r <= 1);
      }
      if (p.name === 'httrack') {
        const r = ratio(h.siteDoneSeconds, p.siteDoneSeconds);
        add('1', "site fetched in ≤ 0.5× HTTrack's time", `${f(r, 2)}× (${f(h.siteDoneSeconds, 1)} s vs ${f(p.siteDoneSeconds, 1)} s)`, r != null && r <= 0.5);
      }
    }
    const c = h.coverage;
    if (c) add('1', '100% coverage', `pages ${c.pagesPct}%, assets ${c.assetsPct}%`, c.pagesPct === 100 && c.assetsPct === 100);
    add('1', 'no more than one request per URL', `${f(h.duplicateRequests)} duplicate requests`, h.duplicateRequests === 0);
    add('5', 'progress at least every 250 ms', `p50 ${f(s1.responsiveness.p50Ms)} ms, p99 ${f(s1.responsiveness.p99Ms)} ms, max ${f(s1.responsiveness.maxMs)} ms`, s1.responsiveness.maxMs != null && s1.responsiveness.maxMs <= 250);
  }
  const s2 = results.scenarios['2'];
  if (s2) {
    const share = pct(s2.harvest.requestsPerSec, s2.ceilingReqPerSec);
    add('2', '≥ 95% of 160 requests/s', `${f(share, 1)}% (${f(s2.harvest.requestsPerSec, 1)} req/s over the whole run; ${f(pct(s2.harvest.fetchPhaseRequestsPerSec, s2.ceilingReqPerSec), 1)}% over the fetch phase)`, share != null && share >= 95);
  }
  const s3 = results.scenarios['3'];
  const one = s3?.onePage;
  if (one) {
    add('3', 'a one-page crawl peaks under 80 MiB', `${f(one.peakRssMiB, 1)} MiB (median of ${one.runs.length})`, one.ok && one.peakRssMiB != null && one.peakRssMiB < 80);
    add('3', 'a one-page crawl starts (first request) in under 0.4 s', `${f(one.firstRequestSeconds, 2)} s; the page's own request at ${f(one.pageRequestSeconds, 2)} s (medians of ${one.runs.length})`, one.ok && one.firstRequestSeconds != null && one.firstRequestSeconds < 0.4);
  }
  if (s3?.sizes.length > 1) {
    const small = s3.sizes[0];
    const large = s3.sizes.at(-1);
    const r = ratio(large.msPerPage, small.msPerPage);
    add('3', `time per page at ${f(large.pages)} pages ≤ 1.2× that at ${f(small.pages)}`, `${f(r, 2)}× (${f(large.msPerPage, 2)} vs ${f(small.msPerPage, 2)} ms/page)`, r != null && r <= 1.2);
  }
  if (s3?.sizes.length > 0) {
    const large = s3.sizes.at(-1);
    const aim = large.pages >= 100_000 ? '' : ' (the aim is at 100,000)';
    add('3', `peak RSS < 160 MiB at ${f(large.pages)} pages${aim}`, `${f(large.maxRssMiB, 1)} MiB`, large.pages >= 100_000 && large.maxRssMiB != null && large.maxRssMiB < 160);
  }
  if (s3?.frontier) {
    const peak = Math.max(s3.frontier.crawl.peakRssMiB ?? 0, s3.frontier.resume.peakRssMiB ?? 0);
    add('3', `peak RSS < 250 MB with ${f(s3.frontier.queuedUrls)} URLs queued`, `${f(peak, 1)} MiB`, peak > 0 && peak * 1.048576 < 250);
  }
  const s4 = results.scenarios['4'];
  if (s4) {
    add('4', 'first new fetch ≤ 2 s after `harvest resume`', `${f(s4.resume.firstNewFetchSeconds, 2)} s`, s4.resume.firstNewFetchSeconds != null && s4.resume.firstNewFetchSeconds <= 2);
    add('4', 'extra requests ≤ URLs in flight at the kill', `${f(s4.extraRequests)} re-fetched vs ${f(s4.killedAt.inFlight)} in flight`, s4.killedAt.inFlight != null && s4.extraRequests <= s4.killedAt.inFlight);
  }
  const s7 = results.scenarios['7'];
  const s8 = results.scenarios['8'];
  if (s8) add('8', `≥ ${f(s8.aim * 100)}% of ${f(s8.ceilingReqPerSec)} requests/s (${s8.sites} sites × ${s8.connections} connections at ${s8.latencyMs} ms)`, `${f(s8.share * 100, 1)}% (${f(s8.harvest.fetchPhaseRequestsPerSec, 1)} req/s over the fetch phase, ${f(s8.harvest.requestsPerSec, 1)} over the whole run)`, s8.met);
  const s10 = results.scenarios['10'];
  if (s10) add('10', `the second core buys ≥ ${s10.aim}× on scenario 1's fetch`, `${f(s10.fetchSpeedup, 2)}× until the site was fetched (${f(s10.oneCore.siteDoneSeconds, 1)} s on one core, ${f(s10.allCores.siteDoneSeconds, 1)} s on ${s10.cores}), ${f(s10.wallSpeedup, 2)}× in wall time`, s10.fetchSpeedup != null && s10.fetchSpeedup >= s10.aim);
  const s9 = results.scenarios['9'];
  if (s9) {
    add('9', "wall time ≤ wget -m -k -E -p's on the nginx-served manuals", `${f(s9.wallRatio, 2)}× (${f(s9.harvest.wallSeconds, 1)} s vs ${f(s9.wget.wallSeconds, 1)} s)`, s9.wallRatio != null && s9.wallRatio <= 1);
    const o = s9.harvest.offline;
    add('9', '100% offline fidelity', o ? `${f(o.fidelityPct, 2)}% (${f(o.local)} of ${f(o.refs + o.escaping)} references local, ${f(o.broken)} broken, ${f(o.escaping)} escaping; ${f(o.pages)} pages)` : 'no mirror', o !== null && o.broken === 0 && o.escaping === 0);
  }
  if (results.scenarios['11']) realSitesTargets(results.scenarios['11'], add);
  if (s7) add('7', `--render keeps ≥ ${f(s7.aim * 100, 1)}% of the static pages/s with ${s7.renderPages} browser pages`, `${f(s7.share * 100, 1)}% (${f(s7.render.pagesPerSec, 2)} vs ${f(s7.static.pagesPerSec, 2)} pages/s)`, s7.met);
  return t;
}

/** CPU milliseconds per request. */
const cpuPerRequest = (r) => (r?.cpuSeconds != null && r.requests ? (r.cpuSeconds * 1000) / r.requests : null);

function floorLine(s1) {
  const fl = s1.floor;
  if (fl.error) return `Floor (bench/floor.mjs): ${fl.error}`;
  const guarded = s1.peers.find((p) => p.name === 'wget-guarded');
  const perPeer = guarded ? `, wget-guarded ${f(cpuPerRequest(guarded), 2)} ms` : '';
  return (
    `Floor (bench/floor.mjs, same server): the ${f(fl.requests)} manifest URLs, known in advance, fetched over ${fl.connections} connections, decompressed, HTML tokenised, each written to a file, nothing else: ` +
    `${f(fl.wallSeconds, 2)} s wall, ${f(fl.cpuSeconds, 2)} s CPU. CPU per request: floor ${f(cpuPerRequest(fl), 2)} ms, Harvest ${f(cpuPerRequest(s1.harvest), 2)} ms${perPeer}.`
  );
}

function archivingFloorLine(s1) {
  const fl = s1.archivingFloor;
  if (fl.error) return `Archiving floor (bench/floor.mjs --archive): ${fl.error}`;
  const share = (x) => f((100 * x) / cpuPerRequest(s1.harvest), 1);
  const archive = cpuPerRequest(fl);
  const bare = cpuPerRequest(s1.floor);
  return (
    `Archiving floor (bench/floor.mjs --archive, same server): the floor plus the archive work, with Harvest's own modules on one thread (WARC records, parsing, rewritten copies, page text in the search index, a catalogue row per URL; no discovery, scope, robots, politeness or threads): ` +
    `${f(fl.wallSeconds, 2)} s wall, ${f(fl.cpuSeconds, 2)} s CPU, ${f(archive, 2)} ms per request, ${f(archive / bare, 1)}× the floor. ` +
    `Of Harvest's ${f(cpuPerRequest(s1.harvest), 2)} ms per request, ${share(bare)}% is the floor's work, ${share(archive - bare)}% the archive work and ${share(cpuPerRequest(s1.harvest) - archive)}% the crawl's own machinery.`
  );
}

const WARMUP_NOTE =
  "Before each scenario's measured runs the bench fetches every page and asset once with Harvest's and once with HTTrack's Accept-Encoding, unmeasured, so serve.mjs answers every crawler from a warm cache (results in bench/results/ without this sentence were measured without the warm-up: Harvest, the first crawler, paid the server's cold-cache compression).";

export function markdown(results) {
  const out = [`# Harvest benchmark, ${results.date}`, '', `Machine: ${results.machine}. Options: \`${results.argv}\`. Load average at start ${results.loadavgStart}.`, '', WARMUP_NOTE, ''];
  const s1 = results.scenarios['1'];
  if (s1) {
    out.push(`## Scenario 1: ${f(s1.pages)} pages, no added latency, compression on`, '', ...crawlTable([s1.harvest, ...s1.peers]), '');
    if (s1.rawLimit?.bestReqPerSec) out.push(`Raw fetch limit (raw-limit.mjs, same run): ${s1.rawLimit.latency0.map((r) => `${f(r.reqPerSec)} req/s at concurrency ${r.concurrency}`).join(', ')}; Harvest fetched at ${f(s1.harvest.requestsPerSec, 1)} req/s over the whole run (${f(pct(s1.harvest.requestsPerSec, s1.rawLimit.bestReqPerSec), 1)}% of the best), ${f(s1.harvest.fetchPhaseRequestsPerSec, 1)} req/s over its fetch phase.`, '');
    if (s1.floor) out.push(floorLine(s1), '');
    if (s1.archivingFloor && s1.floor && !s1.floor.error) out.push(archivingFloorLine(s1), '');
    for (const r of peerRatios(s1)) out.push(`- Harvest vs ${r.text}`);
    out.push('');
  }
  const s2 = results.scenarios['2'];
  if (s2) {
    out.push(`## Scenario 2: ${f(s2.pages)} pages, ${s2.latencyMs} ms per response, ${s2.connections} connections (ceiling ${s2.ceilingReqPerSec} req/s)`, '', ...crawlTable([s2.harvest, ...s2.peers]), '');
    out.push(`Harvest: ${f(s2.harvest.requestsPerSec, 1)} req/s over the whole run = ${f(pct(s2.harvest.requestsPerSec, s2.ceilingReqPerSec), 1)}% of the ceiling; ${f(s2.harvest.fetchPhaseRequestsPerSec, 1)} req/s over the fetch phase (${f(pct(s2.harvest.fetchPhaseRequestsPerSec, s2.ceilingReqPerSec), 1)}%).`, '');
    for (const r of peerRatios(s2)) out.push(`- Harvest vs ${r.text}`);
    out.push('');
  }
  const s3 = results.scenarios['3'];
  if (s3) {
    out.push('## Scenario 3: scale', '');
    const one = s3.onePage;
    if (one) {
      out.push(
        `A one-page crawl (${one.runs.length} runs, medians): peak RSS ${f(one.peakRssMiB, 1)} MiB; from spawn, first request (robots.txt) ${f(one.firstRequestSeconds, 2)} s, the page ${f(one.pageRequestSeconds, 2)} s, exit ${f(one.exitSeconds, 2)} s. ` +
          `Each run: ${one.runs.map((r) => `${f(r.peakRssMiB, 1)} MiB, ${f(r.firstRequestSeconds, 2)}/${f(r.pageRequestSeconds, 2)}/${f(r.exitSeconds, 2)} s`).join('; ')}.`,
        '',
      );
    }
    out.push('| site pages | wall s | ended | ms per page | requests | HTML/s | peak RSS MiB | CPU s | disk MiB | pages / assets on disk |', '|---:|---:|---|---:|---:|---:|---:|---:|---:|---|');
    for (const r of s3.sizes) out.push(`| ${f(r.pages)} | ${f(r.wallSeconds, 1)} | ${r.ended} | ${f(r.msPerPage, 2)} | ${f(r.requests)} | ${f(r.htmlPerSec, 1)} | ${f(r.maxRssMiB, 1)} | ${f(r.cpuSeconds, 1)} | ${f(r.diskMiB, 1)} | ${r.coverage ? `${r.coverage.pagesPct}% / ${r.coverage.assetsPct}%` : 'not checked'} |`);
    out.push('');
    const q = s3.frontier;
    if (q) {
      out.push(`Frontier with ${f(q.queuedUrls)} queued URLs (a seed list, \`--seeds-file\`), paused with SIGINT after 10 s of crawling, resumed, paused again (catalogue ${f(q.catalogueMiB, 1)} MiB):`, '');
      out.push('| stage | s to running | peak RSS at running MiB | peak RSS MiB | queued at pause | done at pause | exit |', '|---|---:|---:|---:|---:|---:|---|');
      for (const [name, st] of [['crawl (list admitted)', q.crawl], ['resume', q.resume]]) out.push(`| ${name} | ${f(st.secondsToRunning, 2)} | ${f(st.peakRssAtRunningMiB, 1)} | ${f(st.peakRssMiB, 1)} | ${f(st.queuedAtPause)} | ${f(st.doneAtPause)} | ${st.exit} |`);
      out.push('');
    }
  }
  const s4 = results.scenarios['4'];
  if (s4) {
    out.push(`## Scenario 4: kill -9 at half of a ${f(s4.pages)}-page crawl, then resume`, '');
    out.push(`Killed after ${f(s4.killedAt.html200NonTrap)} site pages and ${f(s4.killedAt.requests)} requests, ${f(s4.killedAt.inFlight)} in flight (requested but not committed; the last progress event said ${f(s4.killedAt.inFlightLastProgressEvent)}), peak RSS ${f(s4.killedAt.peakRssMiB, 1)} MiB. ` +
      `\`harvest resume\`: first request ${f(s4.resume.firstRequestSeconds, 2)} s, first new fetch (not robots.txt) ${f(s4.resume.firstNewFetchSeconds, 2)} s, first outcome event ${f(s4.resume.firstOutcomeSeconds, 2)} s; ${s4.resume.finished ? 'finished' : 'did not finish within the cap'} with ${f(s4.resume.requests)} requests, peak RSS ${f(s4.resume.peakRssMiB, 1)} MiB. ` +
      `URLs fetched again after the resume: ${f(s4.extraRequests)}${s4.refetchedExamples.length ? ` (e.g. ${s4.refetchedExamples.slice(0, 3).join(', ')})` : ''}.`, '');
  }
  if (s1) {
    const g = s1.responsiveness;
    out.push('## Scenario 5: progress events during scenario 1', '', `${f(g.progressEvents)} progress events; gaps p50 ${f(g.p50Ms)} ms, p99 ${f(g.p99Ms)} ms, max ${f(g.maxMs)} ms; ${f(g.overLimit)} gaps over ${g.limitMs} ms.`, '');
  }
  const s7 = results.scenarios['7'];
  if (s7) out.push(`## Scenario 7: rendered capture against a static crawl, ${f(s7.pages)}-page site`, '', ...renderSummary(s7).map((l) => `- ${l}`), '');
  const s8 = results.scenarios['8'];
  if (s8) {
    out.push(`## Scenario 8: ${s8.sites} sites of ${s8.pagesPerSite} pages at once, ${s8.latencyMs} ms per response, ${s8.connections} connections per host (ceiling ${f(s8.ceilingReqPerSec)} req/s)`, '', ...crawlTable([s8.harvest]), '');
    out.push(`Fetch phase ${f(s8.harvest.fetchPhaseSeconds, 1)} s: ${f(s8.harvest.fetchPhaseRequestsPerSec, 1)} req/s = ${f(s8.share * 100, 1)}% of the ceiling. Requests per site: ${s8.requestsPerSite.map((n) => f(n)).join(', ')}.`, '');
    if (s8.bareClient) out.push(`A bare client on the same servers (every manifest URL fetched and read, ${s8.connections} connections per host, nothing else): ${f(s8.bareClient.requests)} requests in ${f(s8.bareClient.seconds, 1)} s, ${f(s8.bareClient.reqPerSec, 1)} req/s = ${f(s8.bareClient.share * 100, 1)}% of the ceiling.`, '');
  }
  const s10 = results.scenarios['10'];
  if (s10) out.push(`## Scenario 10: scenario 1's crawl on one core, then on ${s10.cores}`, '', ...crawlTable([s10.oneCore, s10.allCores]), '', `Speed-up from the other cores: ${f(s10.fetchSpeedup, 2)}× until the site was fetched, ${f(s10.wallSpeedup, 2)}× in wall time.`, '');
  const s9 = results.scenarios['9'];
  if (s9) {
    out.push(`## Scenario 9: Debian's ${s9.manuals.join(' and ')} manuals (${f(s9.sourcePages)} HTML pages) served by nginx, gzip on`, '', '| crawler | wall s | requests | peak RSS MiB | CPU s | disk MiB | pages on disk | references local / broken / escaping | fidelity |', '|---|---:|---:|---:|---:|---:|---:|---|---:|');
    for (const [name, r] of [['harvest', s9.harvest], ['wget -m -k -E -p', s9.wget]]) {
      const o = r.offline;
      out.push(`| ${name} | ${f(r.wallSeconds, 1)} | ${f(r.requests)} | ${f(r.maxRssMiB, 1)} | ${f(r.cpuSeconds, 1)} | ${f(r.diskMiB, 1)} | ${o ? f(o.pages) : '–'} | ${o ? `${f(o.local)} / ${f(o.broken)} / ${f(o.escaping)}` : '–'} | ${o ? `${f(o.fidelityPct, 2)}%` : '–'} |`);
    }
    const errs = (r) => f(r.offline?.absoluteToErrors);
    out.push('', `Harvest's wall time is ${f(s9.wallRatio, 2)}× wget's. References left absolute to URLs the server answers with an error (not archivable, not counted): Harvest ${errs(s9.harvest)}, wget ${errs(s9.wget)}.`, '');
  }
  if (results.scenarios['11']) out.push(...realSitesMarkdown(results.scenarios['11']));
  for (const [k, v] of Object.entries(results.scenarios)) if (k.endsWith('-error')) out.push(`Scenario ${k.replace('-error', '')} failed: ${v}`, '');
  out.push('## Targets', '', '| scenario | target | measured | met |', '|---|---|---|---|');
  for (const t of targets(results)) out.push(`| ${t.scenario} | ${t.target} | ${t.value} | ${t.met ? 'yes' : '**no**'} |`);
  out.push('');
  return out.join('\n');
}

/** The figures worth following from run to run, by a stable name. */
function keyFigures(r) {
  const k = {};
  const s1 = r.scenarios?.['1'];
  if (s1) Object.assign(k, { 's1 harvest CPU ms/request': round(cpuPerRequest(s1.harvest), 2), 's1 harvest wall s': s1.harvest.wallSeconds, 's1 harvest HTML/s': s1.harvest.htmlPerSec, 's1 harvest peak RSS MiB': s1.harvest.maxRssMiB, 's5 progress gap p99 ms': s1.responsiveness?.p99Ms });
  for (const p of s1?.peers ?? []) k[`s1 ${p.name} wall s`] = p.wallSeconds;
  const s2 = r.scenarios?.['2'];
  if (s2) k['s2 harvest req/s'] = s2.harvest.requestsPerSec;
  const one = r.scenarios?.['3']?.onePage;
  if (one) Object.assign(k, { 's3 one page peak RSS MiB': one.peakRssMiB, 's3 one page first request s': one.firstRequestSeconds });
  for (const s of r.scenarios?.['3']?.sizes ?? []) Object.assign(k, { [`s3 ${s.pages} ms/page`]: s.msPerPage, [`s3 ${s.pages} peak RSS MiB`]: s.maxRssMiB });
  const q = r.scenarios?.['3']?.frontier;
  if (q) k[`s3 ${q.queuedUrls} queued peak RSS MiB`] = Math.max(q.crawl.peakRssMiB ?? 0, q.resume.peakRssMiB ?? 0);
  const s4 = r.scenarios?.['4'];
  if (s4) Object.assign(k, { 's4 first new fetch s': s4.resume.firstNewFetchSeconds, 's4 extra requests': s4.extraRequests });
  const s7 = r.scenarios?.['7'];
  const s10 = r.scenarios?.['10'];
  if (s10) Object.assign(k, { 's10 speed-up (fetch)': s10.fetchSpeedup });
  const s9 = r.scenarios?.['9'];
  if (s9) Object.assign(k, { 's9 harvest wall s': s9.harvest.wallSeconds, 's9 wget wall s': s9.wget.wallSeconds });
  const s8 = r.scenarios?.['8'];
  if (s8) Object.assign(k, { 's8 req/s (fetch phase)': s8.harvest.fetchPhaseRequestsPerSec, 's8 CPU s': s8.harvest.cpuSeconds });
  if (r.scenarios?.['11']) Object.assign(k, realSitesKeyFigures(r.scenarios['11']));
  if (s7) Object.assign(k, { 's7 static pages/s': s7.static.pagesPerSec, 's7 render pages/s': s7.render.pagesPerSec, 's7 render share': s7.share, 's7 render tree peak RSS MiB': s7.render.treeRssMiB });
  return k;
}

export function comparison(earlier, now) {
  const a = keyFigures(earlier);
  const b = keyFigures(now);
  const out = [`## Compared with ${earlier.date}`, '', '| figure | earlier | now | change |', '|---|---:|---:|---:|'];
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const change = a[key] != null && b[key] != null && a[key] !== 0 ? `${f(((b[key] - a[key]) / a[key]) * 100, 1)}%` : '–';
    out.push(`| ${key} | ${f(a[key], 2)} | ${f(b[key], 2)} | ${change} |`);
  }
  return out.join('\n') + '\n';
}
