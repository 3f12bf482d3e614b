import { seededRandom } from '../../electron/engine/focus/crawlProbability.js';
/**
 * A deterministic collection for measuring near-duplicate detection: five organisations' small sites,
 * each in its own page chrome (some with <header>/<nav>/<footer>, some with plain <div>s for banners,
 * sidebars of links and copyright lines), holding articles and notices, and redundant copies of
 * them: print versions (no chrome, a "printed from" line), syndicated copies on another
 * organisation's site (its chrome, a credit line, a tracking-parameter URL) and tracking-parameter
 * copies (the same text, the URL echoed in the markup). Beside them, unrelated look-alikes: every
 * site's HTML sitemap and news listing (mostly links, the same section names), its contact page (the
 * same CMS paragraph with other details) and templated notices (road closures of other streets on
 * other dates). Pages come in crawl order: a copy after its original.
 */

export interface FixturePage {
  url: string;
  html: string;
  /** The organisation whose content the page is (a syndicated copy is its author's). */
  org: string;
  /** The document the page holds: pages with the same doc repeat each other. */
  doc: string;
  kind: 'home' | 'article' | 'notice' | 'print' | 'syndicated' | 'tracking' | 'sitemap' | 'listing' | 'contact';
}


const ORGS = [
  { id: 'northfield', name: 'Northfield Borough Council', host: 'www.northfield.example', semantic: true, topic: ['flood', 'river', 'defence', 'drainage', 'rainfall', 'warning', 'barrier', 'embankment'] },
  { id: 'riverside', name: 'Riverside Water Trust', host: 'riversidewater.example', semantic: false, topic: ['reservoir', 'supply', 'pipe', 'leak', 'meter', 'treatment', 'pressure', 'catchment'] },
  { id: 'eastmoor', name: 'Eastmoor Library Service', host: 'libraries.eastmoor.example', semantic: true, topic: ['library', 'book', 'reading', 'archive', 'loan', 'catalogue', 'volunteer', 'collection'] },
  { id: 'harbour', name: 'Harbour Health Board', host: 'harbourhealth.example', semantic: false, topic: ['clinic', 'vaccine', 'appointment', 'patient', 'nurse', 'pharmacy', 'screening', 'ward'] },
  { id: 'kestrel', name: 'Kestrel Housing Association', host: 'kestrelhomes.example', semantic: true, topic: ['tenant', 'repair', 'rent', 'heating', 'estate', 'damp', 'lettings', 'garden'] },
] as const;
type Org = (typeof ORGS)[number];

const COMMON = (
  'the a of to and in for on with this that our we will from by at as is are be has have new local residents ' +
  'people community service work year week month plan team area public council board support project ' +
  'information help changes across after before during while including next first last more most some many ' +
  'staff members partners funding review report update programme improve provide ensure continue'
).split(' ');
const STREETS = ['Mill Lane', 'Church Street', 'Station Road', 'Brook Way', 'Quarry Hill', 'Market Place', 'Elm Grove', 'Ferry Road', 'Tannery Row', 'Castle Walk'];
const SECTIONS = ['Home', 'About us', 'News', 'Services', 'Events', 'Publications', 'Jobs', 'Contact us', 'Accessibility', 'Privacy', 'Complaints', 'Freedom of information'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

function sentence(r: () => number, topic: readonly string[]): string {
  const n = 9 + Math.floor(r() * 10);
  const words = Array.from({ length: n }, () => (r() < 0.3 ? pick(r, topic) : pick(r, COMMON)));
  const s = words.join(' ');
  return s[0]!.toUpperCase() + s.slice(1) + '.';
}

function paragraphs(r: () => number, topic: readonly string[], count: number): string[] {
  return Array.from({ length: count }, () => Array.from({ length: 3 + Math.floor(r() * 3) }, () => sentence(r, topic)).join(' '));
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

interface Doc {
  org: Org;
  path: string;
  title: string;
  body: string[];
  date: string;
}

/** An organisation's page chrome around `main`: semantic elements, or plain divs as older CMSs write them. */
function chrome(site: Org, title: string, main: string, url: string, r: () => number): string {
  const links = SECTIONS.map((s) => `<li><a href="https://${site.host}/${s.toLowerCase().replace(/ /g, '-')}">${s}</a></li>`).join('');
  const popular = Array.from({ length: 5 }, () => `<li><a href="https://${site.host}/news/${Math.floor(r() * 1000)}">${esc(sentence(r, site.topic).slice(0, 50))}</a></li>`).join('');
  const share = `<p class="share">Share: <a href="https://social.example/share?u=${encodeURIComponent(url)}">Post</a> <a href="mailto:?body=${encodeURIComponent(url)}">Email</a></p>`;
  const copyright = `© 2026 ${site.name}. All rights reserved. Registered office: ${pick(r, STREETS)}, company number ${1000000 + Math.floor(r() * 8999999)}.`;
  if (site.semantic) {
    return `<!doctype html><html><head><title>${esc(title)} | ${site.name}</title><link rel="canonical" href="${esc(url)}"></head><body>
<header><div class="logo">${site.name}</div><p>Serving our community since ${1890 + Math.floor(r() * 100)}</p></header>
<nav><ul>${links}</ul></nav>
<main>${main}${share}</main>
<aside><h3>Popular</h3><ul>${popular}</ul></aside>
<footer><p>${copyright}</p><ul>${links}</ul></footer></body></html>`;
  }
  return `<html><head><title>${esc(title)} - ${site.name}</title><meta property="og:url" content="${esc(url)}"></head><body>
<div class="banner"><span class="logo">${site.name}</span> Working for you, every day of the year</div>
<div class="menu"><ul>${links}</ul></div>
<div class="content">${main}${share}</div>
<div class="sidebar"><b>Most read</b><ul>${popular}</ul><p>Sign up to our newsletter for updates.</p></div>
<div class="foot">${copyright}</div></body></html>`;
}

function article(d: Doc): string {
  return `<h1>${esc(d.title)}</h1><p class="date">Published ${d.date}</p>${d.body.map((p) => `<p>${esc(p)}</p>`).join('')}`;
}

function datum(r: () => number): string {
  return `${1 + Math.floor(r() * 28)} ${pick(r, MONTHS)} 2026`;
}

/** The collection, generated from `seed`. */
export function duplicateFixture(seed = 40): FixturePage[] {
  const r = seededRandom(seed);
  const pages: FixturePage[] = [];
  const add = (site: Org, path: string, html: string, org: string, doc: string, kind: FixturePage['kind']) => pages.push({ url: `https://${site.host}${path}`, html, org, doc, kind });
  const docs: Doc[] = [];
  for (const org of ORGS) {
    const url = (p: string) => `https://${org.host}${p}`;
    add(org, '/', chrome(org, 'Home', `<h1>Welcome to ${org.name}</h1><p>${esc(paragraphs(r, org.topic, 1)[0]!)}</p>`, url('/'), r), org.id, `${org.id}/home`, 'home');
    const own: Doc[] = [];
    for (let i = 0; i < 5; i++) {
      const d: Doc = { org, path: `/news/${org.id}-story-${i}`, title: sentence(r, org.topic).slice(0, 60), body: paragraphs(r, org.topic, 2 + Math.floor(r() * 4)), date: datum(r) };
      own.push(d);
      add(org, d.path, chrome(org, d.title, article(d), url(d.path), r), org.id, `${org.id}${d.path}`, 'article');
    }
    // Templated notices: the same wording about other streets on other dates, different documents.
    const wording = paragraphs(r, org.topic, 2);
    for (let i = 0; i < 3; i++) {
      const street = STREETS[(i * 3 + org.id.length) % STREETS.length]!;
      const when = datum(r);
      const d: Doc = {
        org,
        path: `/notices/${org.id}-closure-${i}`,
        title: `Closure of ${street} on ${when}`,
        body: [`${street} will be closed from 8am on ${when} for ${1 + i} days while works take place near number ${10 + i * 7}.`, ...wording, paragraphs(r, org.topic, 1)[0]!],
        date: when,
      };
      add(org, d.path, chrome(org, d.title, article(d), url(d.path), r), org.id, `${org.id}${d.path}`, 'notice');
    }
    docs.push(...own);
    // Print versions of two articles: no chrome at all, another date line.
    for (const d of own.slice(0, 2)) {
      const path = `/print${d.path}`;
      add(org, path, `<html><head><title>${esc(d.title)}</title></head><body>${article(d)}<p>Printed from ${url(d.path)} on ${datum(r)}.</p></body></html>`, org.id, `${org.id}${d.path}`, 'print');
    }
    // Tracking-parameter copies: the same page, the URL echoed in its canonical link and share links.
    for (const d of own.slice(1, 3)) {
      const path = `${d.path}?utm_source=newsletter&utm_medium=email&utm_campaign=${org.id}${Math.floor(r() * 100)}`;
      add(org, path, chrome(org, d.title, article(d), url(path), seededRandom(seed + d.path.length)), org.id, `${org.id}${d.path}`, 'tracking');
    }
    // A sitemap of links under section headings, and a news listing of headlines with dates.
    const groups = SECTIONS.slice(0, 6)
      .map((s) => `<h2>${s}</h2><ul>${Array.from({ length: 6 }, (_, i) => `<li><a href="${url(`/${s.toLowerCase().replace(/ /g, '-')}/${i}`)}">${esc(pick(r, SECTIONS))} ${esc(pick(r, COMMON))}</a></li>`).join('')}</ul>`)
      .join('');
    add(org, '/sitemap', chrome(org, 'Sitemap', `<h1>Sitemap</h1>${groups}`, url('/sitemap'), r), org.id, `${org.id}/sitemap`, 'sitemap');
    const items = own.map((d) => `<li><a href="${url(d.path)}">${esc(d.title)}</a> <span>${d.date}</span></li>`).join('');
    add(org, '/news', chrome(org, 'News', `<h1>Latest news</h1><ul>${items}</ul><p><a href="${url('/news?page=2')}">Next page</a></p>`, url('/news'), r), org.id, `${org.id}/news`, 'listing');
    add(org, '/contact-us', chrome(org, 'Contact us', contact(org), url('/contact-us'), r), org.id, `${org.id}/contact`, 'contact');
    const printContact = `<html><head><title>Contact us</title></head><body>${contact(org)}</body></html>`;
    if (org.semantic) add(org, '/contact-us/print', printContact, org.id, `${org.id}/contact`, 'print');
  }
  // Syndicated copies: each organisation's first article re-posted by the next one, in its chrome, with a credit line.
  ORGS.forEach((host, i) => {
    const d = docs.find((x) => x.org === ORGS[(i + 1) % ORGS.length])!;
    const path = `/partners/${d.org.id}-repost?ref=partner&sessionid=${Math.floor(r() * 1e9)}`;
    const main = `<p class="credit">This story first appeared on the ${d.org.name} website and is reproduced with permission.</p>${article({ ...d, title: d.title })}`;
    add(host, path, chrome(host, d.title, main, `https://${host.host}${path}`, r), d.org.id, `${d.org.id}${d.path}`, 'syndicated');
  });
  return pages;
}

/** The same CMS contact paragraph on every site, with the organisation's own details. */
function contact(org: Org): string {
  const n = org.name.length;
  return `<h1>Contact us</h1>
<p>We aim to answer every enquiry within ten working days. If your enquiry is urgent please telephone us during office hours, Monday to Friday from 9am to 5pm, and a member of the team will be happy to help you.</p>
<p>Please do not send personal or financial information by email. For complaints please use our complaints form.</p>
<table><tr><th>Name</th><td>${org.name}</td></tr><tr><th>Address</th><td>${10 + n} ${STREETS[n % STREETS.length]}, ${org.id[0]!.toUpperCase()}${org.id.slice(1)}</td></tr>
<tr><th>Phone</th><td>01632 ${900 + n} ${100 + n * 7}</td></tr><tr><th>Email</th><td>enquiries@${org.host}</td></tr></table>`;
}
