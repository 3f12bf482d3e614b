import { createServer, type Server } from 'node:http';
import { listenOnLoopback } from './loopback.js';

/**
 * A generated multi-site test site with known ground truth for focused harvests. Each site (its own
 * 127.0.0.1 port, so its own origin) is a council website: a home page, topic sections and their
 * hubs, and far more off-topic pages than on-topic ones. The topic (flooding) is reachable only
 * through hub chains whose anchor text names it: home → Environment → Flooding → articles and a
 * paginated flood-news listing. Also: a listing whose next-page chain turns off-topic part-way,
 * near-duplicates (print versions with other boilerplate and dates), an exact duplicate (same bytes
 * at another URL), and contact pages with known fields in varied markup (tables, definition
 * lists, paragraphs, bold labels, label/value spans, lists with abbreviated labels; English and
 * Chinese labels). Site 2 is in Chinese.
 */

export interface ContactTruth {
  name: string;
  address: string;
  phone: string;
  email: string;
  fax: string;
  postcode: string;
}
/** The flood topic for the generated sites: English and Chinese keywords and filter levels. */
export const FLOOD_TEMPLATE = {
  topic: { keywords: ['flood risk', 'flooding', { term: '洪水', weight: 2, synonyms: ['防洪'] }], threshold: 0.3 },
  filters: [
    ['environment', 'flooding', '环境', '洪水'],
    ['flood', '洪水', '防洪'],
  ],
  nextPage: ['next', '下一页'],
  nearDuplicate: { maxHamming: 3 },
};

/** Contact details: the contact section is the one filter level; every field has English and Chinese labels. */
export const CONTACT_TEMPLATE = {
  topic: { keywords: ['contact', '联系'] },
  filters: [['contact', '联系我们']],
  extract: {
    name: { keywords: ['name', 'department'], synonyms: ['名称', '部门'] },
    address: { keywords: ['address', '地址'] },
    phone: { keywords: ['phone', 'telephone', 'tel'], synonyms: ['电话'], regex: '\\+?\\(?[0-9][0-9 ()\\-]{6,}[0-9]' },
    email: { keywords: ['email', 'e-mail'], synonyms: ['邮箱', '电子邮箱'], regex: '[^@\\s]+@[^@\\s]+\\.[a-z]+' },
    fax: { keywords: ['fax'], synonyms: ['传真'], regex: '\\+?\\(?[0-9][0-9 ()\\-]{6,}[0-9]' },
    postcode: { keywords: ['postcode', 'post code', 'zip'], synonyms: ['邮编', '邮政编码'] },
  },
};

export const CONTACT_FIELDS = ['name', 'address', 'phone', 'email', 'fax', 'postcode'] as const;

export interface FocusSiteTruth {
  origins: string[];
  /** Every HTML page: URL → whether it is about the topic. */
  pages: Map<string, boolean>;
  /** The flood-news listing of site 0: pages that match, the page where it turns off-topic, the page after. */
  chain: { matching: string[]; stop: string; after: string };
  /** Print versions: URL → the article they repeat. */
  nearDuplicates: Map<string, string>;
  /** Same bytes at another URL: URL → the original. */
  exactDuplicates: Map<string, string>;
  contacts: Map<string, ContactTruth>;
  /** With `jointStatement`: the statement's URL on sites 0 and 1 (near-duplicates of each other). */
  joint: string[];
}

export interface FocusSiteOptions {
  /**
   * Sites 0 and 1 link their flooding hub to a joint statement, the same text on both with each
   * site's own date and boilerplate (near-duplicates, not byte-identical); each site holds its
   * answer until the other has been asked too (or 3 s), so two crawlers serving one site each judge
   * their copy at the same moment, neither knowing of the other's.
   */
  jointStatement?: boolean;
}

export interface FocusSite {
  truth: FocusSiteTruth;
  /** How often both joint statements were asked for together (each held until the other was asked). */
  jointPairs(): number;
  close(): Promise<void>;
}

/** A small deterministic generator (LCG), so the site is the same on every run. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

const EN = {
  flood: [
    'The council has published new flood risk maps for the river valley.',
    'Residents in areas at flood risk can sign up for flood warnings by text message.',
    'Sandbags are available from the depot when the flood risk is high.',
    'The flood defence scheme protects four hundred homes from river flooding.',
    'Surface water flooding after heavy rain is the most common flood risk in town.',
    'Check whether your home is in a flood risk zone before you buy insurance.',
    'The Environment Agency and the council share data on flood risk and river levels.',
    'After a flood, report damage to the council and keep receipts for repairs.',
  ],
  other: [
    'The library opens at nine on weekdays and at ten on Saturdays.',
    'Bus route twelve now runs every fifteen minutes during the day.',
    'The summer festival brings music, food stalls and games to the park.',
    'Parking permits can be renewed online or at the town hall.',
    'Recycling collections move to Thursday in the week of a bank holiday.',
    'The museum shows paintings by local artists throughout the winter.',
    'Road works on the high street will finish by the end of the month.',
    'Council tax bills are sent out in March each year.',
    'Adult education classes include languages, cooking and computing.',
    'The swimming pool is closed for maintenance until further notice.',
  ],
};

const ZH = {
  flood: [
    '市政府发布了河谷地区最新的洪水风险地图。',
    '位于洪水风险区的居民可以通过短信订阅洪水预警。',
    '防洪堤工程保护了四百户家庭免受河水泛滥。',
    '暴雨后的地表积水是本市最常见的洪水隐患。',
    '购买保险前请先查询您的住所是否位于洪水风险区。',
    '洪水过后请向市政府报告损失并保留维修收据。',
    '防洪物资可在风险较高时到仓库领取。',
  ],
  other: [
    '图书馆工作日上午九点开放，周六上午十点开放。',
    '十二路公交车白天每十五分钟一班。',
    '夏季音乐节在公园举行，有美食和游戏。',
    '停车许可证可在网上或市政厅续办。',
    '博物馆冬季展出本地艺术家的绘画作品。',
    '主街道路施工将于月底前完成。',
    '成人教育课程包括语言、烹饪和计算机。',
    '游泳馆因维修暂停开放。',
  ],
};

/** Words for each text's sentence of its own (place and street names, in any site's language). */
const OWN_WORDS = 'north south east west upper lower old new mill church market bridge castle station garden meadow river brook hill vale green cross park lane road street row court square field wood farm abbey priory harbour quay dock wharf'.split(' ');

interface Page {
  path: string;
  html: string;
  relevant: boolean;
}

function pick<T>(r: () => number, list: readonly T[], n: number): T[] {
  return Array.from({ length: n }, () => list[Math.floor(r() * list.length)]!);
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

interface Labels {
  home: string;
  env: string;
  flooding: string;
  transport: string;
  culture: string;
  news: string;
  contact: string;
  next: string;
  floodArticle: (k: number) => string;
  floodNews: string;
  updated: string;
  print: string;
}

const EN_LABELS: Labels = {
  home: 'Home',
  env: 'Environment',
  flooding: 'Flooding',
  transport: 'Transport',
  culture: 'Culture and leisure',
  news: 'Council news',
  contact: 'Contact us',
  next: 'Next »',
  floodArticle: (k) => `Flood risk in ward ${k}`,
  floodNews: 'Flood news',
  updated: 'Updated',
  print: 'Print version',
};

const ZH_LABELS: Labels = {
  home: '首页',
  env: '环境',
  flooding: '洪水',
  transport: '交通',
  culture: '文化休闲',
  news: '政府新闻',
  contact: '联系我们',
  next: '下一页',
  floodArticle: (k) => `第${k}区洪水风险`,
  floodNews: '防洪新闻',
  updated: '更新于',
  print: '打印版',
};

function layout(lang: 'en' | 'zh', l: Labels, title: string, body: string, date = '2025-03-01'): string {
  const nav = [
    ['/', l.home],
    ['/environment/', l.env],
    ['/transport/', l.transport],
    ['/culture/', l.culture],
    ['/news/1', l.news],
    ['/contact/', l.contact],
  ]
    .map(([href, text]) => `<a href="${href}">${esc(text!)}</a>`)
    .join(' | ');
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${esc(title)}</title></head><body>
<header><p>${l.updated} ${date}</p><nav>${nav}</nav></header>
<main><h1>${esc(title)}</h1>
${body}
</main>
<footer><p>© Council ${date.slice(0, 4)}</p></footer>
</body></html>`;
}

function paragraphs(sentences: string[], per = 3): string {
  const out: string[] = [];
  for (let i = 0; i < sentences.length; i += per) out.push(`<p>${esc(sentences.slice(i, i + per).join(' '))}</p>`);
  return out.join('\n');
}

const CONTACTS_EN: ContactTruth[] = [
  { name: 'Planning Department', address: '12 High Street, Springfield', phone: '01632 960 123', email: 'planning@springfield.example', fax: '01632 960 124', postcode: 'SP1 2AB' },
  { name: 'Housing Office', address: '4 Mill Lane, Springfield', phone: '01632 960 200', email: 'housing@springfield.example', fax: '01632 960 201', postcode: 'SP2 3CD' },
  { name: 'Parks and Gardens', address: '1 Park Road, Springfield', phone: '+44 1632 960 300', email: 'parks@springfield.example', fax: '+44 1632 960 301', postcode: 'SP3 4EF' },
  { name: 'Waste Services', address: '77 Depot Way, Riverton', phone: '01632 960 410', email: 'waste@riverton.example', fax: '01632 960 411', postcode: 'RV1 5GH' },
  { name: 'Library Service', address: '3 Church Square, Riverton', phone: '01632 960 520', email: 'library@riverton.example', fax: '01632 960 521', postcode: 'RV2 6JK' },
  { name: 'Licensing Team', address: '9 Market Place, Riverton', phone: '(01632) 960 630', email: 'licensing@riverton.example', fax: '(01632) 960 631', postcode: 'RV3 7LM' },
];

const CONTACTS_ZH: ContactTruth[] = [
  { name: '规划局', address: '北京市东城区长安街1号', phone: '010-6512 3456', email: 'guihua@city.example', fax: '010-6512 3457', postcode: '100010' },
  { name: '住房管理处', address: '北京市西城区金融街8号', phone: '010-6622 1188', email: 'zhufang@city.example', fax: '010-6622 1189', postcode: '100032' },
  { name: '水务局', address: '北京市海淀区中关村大街27号', phone: '010-8261 7700', email: 'shuiwu@city.example', fax: '010-8261 7701', postcode: '100080' },
];

const EN_FIELD_LABELS: Record<keyof ContactTruth, string> = {
  name: 'Name',
  address: 'Address',
  phone: 'Telephone',
  email: 'Email',
  fax: 'Fax',
  postcode: 'Postcode',
};
const ZH_FIELD_LABELS: Record<keyof ContactTruth, string> = {
  name: '名称',
  address: '地址',
  phone: '电话',
  email: '电子邮箱',
  fax: '传真',
  postcode: '邮编',
};

/** One contact in one of five markups. */
function contactMarkup(c: ContactTruth, style: number, labels: Record<keyof ContactTruth, string>, zh: boolean): string {
  const fields = CONTACT_FIELDS.map((f) => [labels[f], f === 'email' ? `<a href="mailto:${c.email}">${c.email}</a>` : esc(c[f])] as const);
  const colon = zh ? '：' : ':';
  switch (style % 6) {
    case 0:
      return `<table class="contact">${fields.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join('')}</table>`;
    case 1:
      return `<dl>${fields
        .map(([k, v]) => `<dt>${k}</dt><dd>${k === labels.address ? v.replace(', ', ',<br>') : v}</dd>`)
        .join('')}</dl>`;
    case 2:
      return `<p>${fields.map(([k, v]) => `${k}${colon} ${v}`).join('<br>\n')}</p>`;
    case 3:
      return fields.map(([k, v]) => `<p><strong>${k}${colon}</strong> ${v}</p>`).join('\n');
    case 5: {
      // Abbreviated labels in a list.
      const short: Record<string, string> = { Telephone: 'Tel.', Email: 'E-mail', Postcode: 'Post code' };
      return `<ul class="contact">${fields.map(([k, v]) => `<li>${short[k] ?? k}${colon} ${v}</li>`).join('')}</ul>`;
    }
    default:
      return `<div class="card">${fields.map(([k, v]) => `<div class="row"><span class="label">${k}</span> <span class="value">${v}</span></div>`).join('')}</div>`;
  }
}

const JOINT = '/environment/flooding/joint-statement';
const JOINT_TEXT = [
  'The two councils have agreed a joint plan against flood risk along the shared river valley.',
  'Flood warnings, sandbags and flood defence works will be shared between both towns.',
  'Residents at flood risk on either bank can report flooding to either council.',
  'The flood risk maps of both councils will be published together each spring.',
];

function buildSite(index: number, r: () => number, joint: boolean): { pages: Page[]; chain?: { matching: string[]; stop: string; after: string }; near: [string, string][]; exact: [string, string][]; contacts: [string, ContactTruth][] } {
  const zh = index === 2;
  const lang = zh ? 'zh' : 'en';
  const l = zh ? ZH_LABELS : EN_LABELS;
  const text = zh ? ZH : EN;
  const pages: Page[] = [];
  const add = (path: string, title: string, body: string, relevant: boolean, date?: string) =>
    pages.push({ path, html: layout(lang, l, title, body, date), relevant });
  // Every text also gets a sentence of its own, so two pages drawing the same sentences stay distinct.
  const own = () => `<p>${esc(pick(r, OWN_WORDS, 14).join(' '))}.</p>`;
  const offTopic = (n: number) => paragraphs(pick(r, text.other, n)) + own();
  const onTopic = (n: number) => paragraphs(pick(r, text.flood, n)) + own();
  const list = (items: [string, string][]) => `<ul>${items.map(([h, t]) => `<li><a href="${h}">${esc(t)}</a></li>`).join('')}</ul>`;

  add('/', zh ? '市政府网站' : 'Springfield Council', offTopic(6), false);

  // Environment: a hub without the topic, leading to the flooding hub and to other subjects.
  const envOther = zh ? ['垃圾回收', '空气质量', '公园绿地', '噪音投诉'] : ['Recycling', 'Air quality', 'Parks and green spaces', 'Noise complaints'];
  add('/environment/', l.env, offTopic(4) + list([['/environment/flooding/', l.flooding], ...envOther.map((t, i) => [`/environment/topic-${i}`, t] as [string, string])]), false);
  envOther.forEach((t, i) => add(`/environment/topic-${i}`, t, offTopic(8), false));

  // Flooding hub, articles, print versions (near-duplicates) and one exact duplicate.
  const articles = Array.from({ length: 8 }, (_, k) => k + 1);
  const jointHere = joint && index < 2;
  add(
    '/environment/flooding/',
    l.flooding,
    onTopic(3) +
      list([
        ...articles.map((k) => [`/environment/flooding/ward-${k}`, l.floodArticle(k)] as [string, string]),
        ['/environment/flooding/news?page=1', l.floodNews],
        ...(jointHere ? [[JOINT, 'Joint statement on flood risk'] as [string, string]] : []),
      ]),
    true,
  );
  if (jointHere) add(JOINT, 'Joint statement on flood risk', paragraphs(JOINT_TEXT, 2), true, `2025-0${index + 4}-01`);
  const near: [string, string][] = [];
  const exact: [string, string][] = [];
  const bodies = new Map<number, string>();
  for (const k of articles) {
    const body = onTopic(9) + list([[`/environment/flooding/ward-${k}/print`, l.print], [`/environment/flooding/ward-${(k % 8) + 1}`, l.floodArticle((k % 8) + 1)]]);
    bodies.set(k, body);
    add(`/environment/flooding/ward-${k}`, l.floodArticle(k), body, true);
  }
  for (const k of articles.slice(0, 3)) {
    // Same text, another date and boilerplate: the header, navigation and footer are not the page's own text.
    pages.push({
      path: `/environment/flooding/ward-${k}/print`,
      html: layout(lang, l, l.floodArticle(k), bodies.get(k)!.replace(/<ul>.*<\/ul>/s, ''), '2026-01-15').replace('<header>', '<header class="print">'),
      relevant: true,
    });
    near.push([`/environment/flooding/ward-${k}/print`, `/environment/flooding/ward-${k}`]);
  }
  for (const k of articles.slice(3)) add(`/environment/flooding/ward-${k}/print`, l.floodArticle(k), onTopic(2), true);
  // Linked from the first flood-news page: identical bytes under another URL.
  const dupOf = pages.find((p) => p.path === '/environment/flooding/ward-1')!;
  pages.push({ path: '/environment/flooding/ward-1?ref=news', html: dupOf.html, relevant: true });
  exact.push(['/environment/flooding/ward-1?ref=news', '/environment/flooding/ward-1']);

  // Flood news: five matching listing pages, a sixth that turns off-topic, a seventh after it.
  const listing = (n: number) => `/environment/flooding/news?page=${n}`;
  for (let n = 1; n <= 7; n++) {
    const matching = n <= 5;
    const items = Array.from({ length: 3 }, (_, j) => `/environment/flooding/news/item-${n}-${j}`);
    const entries = items
      .map((h, j) => `<h2><a href="${h}">${esc(matching ? `${l.floodNews} ${n}.${j}` : `Notice ${n}.${j}`)}</a></h2>${matching ? onTopic(2) : offTopic(2)}`)
      .join('\n');
    // The first page also links the exact duplicate (same bytes as ward 1 under another URL).
    const dup = n === 1 ? `<p><a href="/environment/flooding/ward-1?ref=news">${esc(l.floodArticle(1))}</a></p>` : '';
    add(listing(n), `${matching ? l.floodNews : zh ? '通知' : 'Notices'} ${n}`, entries + dup + `<p><a href="${listing(n + 1)}">${esc(l.next)}</a></p>`, matching);
    items.forEach((h, j) => add(h, `${n}.${j}`, matching ? onTopic(6) : offTopic(6), matching));
  }
  add(listing(8), 'Notices 8', offTopic(3), false);
  const chain = index === 0 ? { matching: [1, 2, 3, 4, 5].map(listing), stop: listing(6), after: listing(7) } : undefined;

  // Off-topic sections, much larger than the topic's.
  const sections: [string, string, number][] = [
    ['transport', l.transport, 8],
    ['culture', l.culture, 8],
  ];
  for (const [dir, title, subs] of sections) {
    const subLinks: [string, string][] = Array.from({ length: subs }, (_, s) => [`/${dir}/s${s}/`, `${title} ${s + 1}`]);
    add(`/${dir}/`, title, offTopic(4) + list(subLinks), false);
    for (let s = 0; s < subs; s++) {
      const leaves: [string, string][] = Array.from({ length: 5 }, (_, p) => [`/${dir}/s${s}/p${p}`, `${title} ${s + 1}.${p + 1}`]);
      add(`/${dir}/s${s}/`, `${title} ${s + 1}`, offTopic(3) + list(leaves), false);
      leaves.forEach(([h, t]) => add(h, t, offTopic(8), false));
    }
  }
  // Council news: a paginated off-topic listing.
  for (let n = 1; n <= 10; n++) add(`/news/${n}`, `${l.news} ${n}`, offTopic(6) + list([[`/news/${n + 1}`, l.next]]), false);
  add('/news/11', `${l.news} 11`, offTopic(4), false);

  // Contacts.
  const contacts = zh ? CONTACTS_ZH : CONTACTS_EN.slice(index * 3, index * 3 + 3);
  const labels = zh ? ZH_FIELD_LABELS : EN_FIELD_LABELS;
  const contactPages: [string, ContactTruth][] = contacts.map((c, i) => [`/contact/dept-${i}`, c]);
  add('/contact/', l.contact, offTopic(2) + list(contactPages.map(([h, c]) => [h, `${l.contact}: ${c.name}`])), false);
  contactPages.forEach(([h, c], i) => add(h, `${l.contact}: ${c.name}`, `<p>${esc(zh ? '欢迎来电咨询。' : 'We are happy to help.')}</p>` + contactMarkup(c, index * 3 + i + (zh ? 4 : 0), labels, zh), false));
  return { pages, ...(chain && { chain }), near, exact, contacts: contactPages };
}

/** Calls each waiter once `count` are waiting (counting `met`), or after `ms` (a site asked alone still answers). */
function barrier(count: number, ms: number): { wait: (go: () => void) => void; met: () => number } {
  const waiting: (() => void)[] = [];
  let met = 0;
  const wait = (go: () => void) => {
    waiting.push(go);
    if (waiting.length >= count) {
      met++;
      for (const w of waiting.splice(0)) w();
    } else
      setTimeout(() => {
        const i = waiting.indexOf(go);
        if (i >= 0) waiting.splice(i, 1)[0]!();
      }, ms);
  };
  return { wait, met: () => met };
}

/** Generates and serves the sites (three by default) on 127.0.0.1. */
export async function startFocusSite(siteCount = 3, seed = 19, opts: FocusSiteOptions = {}): Promise<FocusSite> {
  const r = rng(seed);
  const servers: Server[] = [];
  const truth: FocusSiteTruth = {
    origins: [],
    pages: new Map(),
    chain: { matching: [], stop: '', after: '' },
    nearDuplicates: new Map(),
    exactDuplicates: new Map(),
    contacts: new Map(),
    joint: [],
  };
  const jointBarrier = barrier(2, 3_000);
  for (let i = 0; i < siteCount; i++) {
    const site = buildSite(i, r, opts.jointStatement === true);
    const byPath = new Map(site.pages.map((p) => [p.path, p.html]));
    const server = createServer((req, res) => {
      const html = byPath.get(req.url ?? '');
      if (html === undefined) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      const answer = () => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      if (req.url === JOINT) jointBarrier.wait(answer);
      else answer();
    });
    servers.push(server);
    const origin = await listenOnLoopback(server);
    truth.origins.push(origin);
    for (const p of site.pages) truth.pages.set(origin + p.path, p.relevant);
    if (site.chain) truth.chain = { matching: site.chain.matching.map((p) => origin + p), stop: origin + site.chain.stop, after: origin + site.chain.after };
    for (const [a, b] of site.near) truth.nearDuplicates.set(origin + a, origin + b);
    for (const [a, b] of site.exact) truth.exactDuplicates.set(origin + a, origin + b);
    for (const [p, c] of site.contacts) truth.contacts.set(origin + p, c);
    if (byPath.has(JOINT)) truth.joint.push(origin + JOINT);
  }
  return {
    truth,
    jointPairs: jointBarrier.met,
    close: () => Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))).then(() => {}),
  };
}
