// Scenario 11's tables: Harvest against wget+WARC (and HTTrack) per site, and the stage table.
import { STAGES } from './stageProfile.mjs';

const f = (x, d = 0) => (x == null ? '–' : typeof x === 'number' ? x.toLocaleString('en-US', { maximumFractionDigits: d }) : String(x));

export function realSitesMarkdown(s11) {
  const out = [`## Scenario 11: real documentation sites under nginx, ${s11.rounds} alternating runs each, medians`, ''];
  out.push('| site | crawler | requests | wall s | CPU s | CPU ms per request | peak RSS MiB | disk MiB | exits |', '|---|---|---:|---:|---:|---:|---:|---:|---|');
  for (const s of Object.values(s11.sites)) {
    for (const [crawler, m] of Object.entries(s.medians)) {
      out.push(`| ${s.title} | ${crawler} | ${f(m.requests)} | ${f(m.wallSeconds, 1)} | ${f(m.cpuSeconds, 1)} | ${f(m.cpuMsPerRequest, 2)} | ${f(m.maxRssMiB, 1)} | ${f(m.diskMiB, 1)} | ${m.exits.join(', ')} |`);
    }
  }
  out.push('');
  for (const s of Object.values(s11.sites)) {
    const others = Object.entries(s.medians).filter(([c]) => !c.startsWith('harvest') && c !== 'wget-warc' && !c.endsWith('-floor'));
    const extra = others.map(([c, m]) => `; against ${c}: CPU per request ${f(s.medians.harvest.cpuMsPerRequest / m.cpuMsPerRequest, 2)}×, wall ${f(s.medians.harvest.wallSeconds / m.wallSeconds, 2)}×`).join('');
    const base = s.medians['harvest-baseline'];
    const before = base ? `; against the baseline build (${s11.baseline}): CPU per request ${f(base.cpuMsPerRequest, 2)} -> ${f(s.medians.harvest.cpuMsPerRequest, 2)} ms, peak RSS ${f(base.maxRssMiB, 1)} -> ${f(s.medians.harvest.maxRssMiB, 1)} MiB` : '';
    const fl = s.medians['archiving-floor'];
    const nf = s.medians['node-floor'];
    const floor =
      (fl ? `; the archiving floor ${f(fl.cpuMsPerRequest, 2)} ms a request, ${f(s.floorCpuRatio, 2)}× wget+WARC's, wall ${f(fl.wallSeconds, 1)} s` : '') +
      (nf ? `; the bare Node loop ${f(nf.cpuMsPerRequest, 2)} ms a request, ${f(s.nodeFloorCpuRatio, 2)}× wget+WARC's` : '');
    out.push(`- ${s.title}: Harvest against wget+WARC, CPU per request ${f(s.cpuRatio, 2)}×, wall ${f(s.wallRatio, 2)}×${extra}${before}${floor}.`);
  }
  if (s11.fileCreationMs != null) {
    const made = (m) => (m?.entries == null ? '–' : `${f(m.entries)} (${f((m.entries * s11.fileCreationMs) / m.requests, 2)} ms a request)`);
    out.push(
      '',
      `Creating a file costs ${f(s11.fileCreationMs, 3)} ms of CPU on this file system (2,000 empty files in the work folder, nearly all of it the kernel's), whichever crawler makes it. ` +
        `Files and folders each crawler made: ${Object.values(s11.sites).map((s) => `${s.title}: Harvest ${made(s.medians.harvest)}, wget+WARC ${made(s.medians['wget-warc'])}`).join('; ')}. ` +
        "A profile's samples count a thread's time in a call, waits included, so the stage table's `open` can be larger. " +
        `Before the runs the bench waited ${f(s11.settleSeconds ?? 0)} s for a new file to cost at most 0.1 ms: files deleted within the last minutes make the kernel skip their inodes at each new file. Each crawler's copy has a block group of its own (\`chattr +T\` on its parent), so what one crawler deletes (wget's link conversion deletes and remakes each page) costs only it.`,
    );
  }
  out.push(
    '',
    "The archiving floor (`bench/floor.mjs --archive`): the URLs Harvest's first run requested, fetched and archived by Harvest's own modules on one thread, with no discovery, scope, robots, frontier or threads: the least Harvest's archive work costs. " +
      'The bare Node loop (`bench/floor.mjs` without `--archive`): the same URLs over the same 8 connections, decompressed, each page tokenised and each body written to a file, with no archive work at all: the least any crawler on Node and undici pays.',
    '',
  );
  const profiled = Object.values(s11.sites).filter((s) => s.stages && !s.stages.error);
  if (profiled.length > 0) {
    out.push(
      "Harvest's CPU per request by stage (one crawl per site under `node --cpu-prof`, from `dist/`; each stage's share of the profiles' busy samples applied to the median CPU per request of the unprofiled runs; library calls count for the stage of the Harvest module that made them; GC helper threads and the thread pool's zlib and file work appear only through the JS threads that wait for them):",
      '',
      `| stage | ${profiled.map((s) => `${s.title} ms/request (%)`).join(' | ')} |`,
      `|---|${profiled.map(() => '---:').join('|')}|`,
    );
    for (const stage of STAGES) {
      out.push(`| ${stage} | ${profiled.map((s) => { const r = s.stages.stages.find((x) => x.stage === stage); return `${f(r.msPerRequest, 3)} (${f(r.pct, 1)}%)`; }).join(' | ')} |`);
    }
    out.push(`| **all** | ${profiled.map((s) => `**${f(s.medians.harvest.cpuMsPerRequest, 3)}**; wget+WARC ${f(s.medians['wget-warc'].cpuMsPerRequest, 3)}`).join(' | ')} |`, '');
    for (const s of profiled) out.push(`Busiest functions, ${s.title}: ${s.stages.topFunctions.slice(0, 8).map((t) => `${t.fn} ${f(t.pct, 1)}% (${t.stage})`).join('; ')}.`, '');
  }
  for (const s of Object.values(s11.sites)) if (s.stages?.error) out.push(`Stage table, ${s.title}: ${s.stages.error}`, '');
  return out;
}

/** The issue's targets for scenario 11: CPU per request ≤ 1.5× wget+WARC's on the named sites, wall ≤ 1.0× on all. */
export function realSitesTargets(s11, add) {
  for (const [name, s] of Object.entries(s11.sites)) {
    if (s11.cpuTargetSites.includes(name)) add('11', `${s.title}: CPU per request ≤ ${s11.cpuAim}× wget+WARC's`, `${f(s.cpuRatio, 2)}× (${f(s.medians.harvest.cpuMsPerRequest, 2)} vs ${f(s.medians['wget-warc'].cpuMsPerRequest, 2)} ms)`, s.cpuRatio != null && s.cpuRatio <= s11.cpuAim);
    add('11', `${s.title}: wall time ≤ wget+WARC's`, `${f(s.wallRatio, 2)}× (${f(s.medians.harvest.wallSeconds, 1)} vs ${f(s.medians['wget-warc'].wallSeconds, 1)} s)`, s.wallRatio != null && s.wallRatio <= 1);
  }
}

export function realSitesKeyFigures(s11) {
  const k = { 's11 file creation CPU ms': s11.fileCreationMs };
  for (const [name, s] of Object.entries(s11.sites)) Object.assign(k, { [`s11 ${name} harvest CPU ms/request`]: s.medians.harvest.cpuMsPerRequest, [`s11 ${name} CPU ratio to wget+WARC`]: s.cpuRatio, [`s11 ${name} wall ratio to wget+WARC`]: s.wallRatio, [`s11 ${name} archiving floor CPU ratio to wget+WARC`]: s.floorCpuRatio, [`s11 ${name} bare Node loop CPU ratio to wget+WARC`]: s.nodeFloorCpuRatio });
  return k;
}
