import { parseTemplate, TemplateValidationError, type Template, type TemplateInput } from '../../shared/template.js';

/**
 * The job form's focused-harvest template, one text (or boolean) per part of the template schema,
 * turned into a template and checked with the schema the host applies (shared/template.ts). An
 * issue lands on the field it concerns, naming the line and the template's own field name.
 */
export interface TemplateDraft {
  enabled: boolean;
  keywords: string;
  threshold: string;
  filters: string;
  nextPage: string;
  extract: string;
  maxHamming: string;
  search: string;
  sitemaps: boolean;
}

export type TemplateFieldKey = Exclude<keyof TemplateDraft, 'enabled'>;

export interface TemplateFieldDef {
  key: TemplateFieldKey;
  /** The template field it fills (issue paths under it land here). */
  path: string;
  label: string;
  kind: 'lines' | 'text' | 'bool';
  help: string;
}

export const TEMPLATE_FIELDS: TemplateFieldDef[] = [
  { key: 'keywords', path: 'topic.keywords', label: 'Topic keywords', kind: 'lines', help: "One per line, any language; 'term *2 = synonym, synonym' weighs a term and gives its synonyms" },
  { key: 'threshold', path: 'topic.threshold', label: 'Relevance threshold', kind: 'text', help: 'Pages scoring below it (0–1) are off-topic; empty: 0.3' },
  { key: 'filters', path: 'filters', label: 'Filter levels', kind: 'lines', help: 'One level per line, its keywords separated by commas' },
  { key: 'nextPage', path: 'nextPage', label: 'Next-page labels', kind: 'text', help: 'Separated by commas; empty: next, next page, ›, », 下一页, 下页, suivant, weiter' },
  { key: 'extract', path: 'extract', label: 'Fields to extract', kind: 'lines', help: "One per line: 'name: label, label /regex/' (the regex is optional)" },
  { key: 'maxHamming', path: 'nearDuplicate', label: 'Near-duplicate distance (bits)', kind: 'text', help: 'SimHash bits (of their main content) two near-duplicates differ in at most; empty: 10' },
  { key: 'search', path: 'seeds.search', label: 'Seed search URLs', kind: 'lines', help: 'A site search page per line, {q} for the keyword and {page} for the result page' },
  { key: 'sitemaps', path: 'seeds.sitemaps', label: "Seeds from the sites' sitemaps", kind: 'bool', help: "robots.txt 'Sitemap:' lines, else /sitemap.xml" },
];

export const EMPTY_TEMPLATE_DRAFT: TemplateDraft = {
  enabled: false,
  keywords: '',
  threshold: '',
  filters: '',
  nextPage: '',
  extract: '',
  maxHamming: '',
  search: '',
  sitemaps: false,
};

const lines = (s: string): string[] =>
  s
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
const list = (s: string): string[] =>
  s
    .split(/[,，]/)
    .map((w) => w.trim())
    .filter((w) => w !== '');

/** The form's texts for a job's template (or an empty, disabled one). */
export function templateDraftOf(t: Template | null): TemplateDraft {
  if (t === null) return EMPTY_TEMPLATE_DRAFT;
  const keyword = (k: Template['topic']['keywords'][number]): string => {
    if (typeof k === 'string') return k;
    return `${k.term}${k.weight !== 1 ? ` *${k.weight}` : ''}${k.synonyms.length > 0 ? ` = ${k.synonyms.join(', ')}` : ''}`;
  };
  return {
    enabled: true,
    keywords: t.topic.keywords.map(keyword).join('\n'),
    threshold: String(t.topic.threshold),
    filters: t.filters.map((level) => level.join(', ')).join('\n'),
    nextPage: t.nextPage.join(', '),
    extract: Object.entries(t.extract)
      .map(([name, f]) => `${name}: ${[...f.keywords, ...f.synonyms].join(', ')}${f.regex !== undefined ? ` /${f.regex}/` : ''}`)
      .join('\n'),
    maxHamming: String(t.nearDuplicate.maxHamming),
    search: (t.seeds?.search ?? []).join('\n'),
    sitemaps: t.seeds?.sitemaps === true,
  };
}

export interface TemplateDraftResult {
  /** null when the form has no template (or it has issues). */
  template: Template | null;
  /** By field: messages naming the line and the template's field. */
  issues: Partial<Record<TemplateFieldKey, string[]>>;
}

/** The template the draft describes, checked with the template schema. */
export function templateFromDraft(d: TemplateDraft): TemplateDraftResult {
  if (!d.enabled) return { template: null, issues: {} };
  const issues: TemplateDraftResult['issues'] = {};
  const add = (key: TemplateFieldKey, message: string) => (issues[key] ??= []).push(message);
  const input: TemplateInput & Record<string, unknown> = {
    topic: { keywords: lines(d.keywords).map(keywordOf) },
    filters: lines(d.filters).map(list),
    extract: {},
  };
  const number = (key: TemplateFieldKey, text: string): number | undefined => {
    if (text.trim() === '') return undefined;
    const n = Number(text.trim());
    if (!Number.isFinite(n)) add(key, `'${text.trim()}' is not a number`);
    return Number.isFinite(n) ? n : undefined;
  };
  const threshold = number('threshold', d.threshold);
  if (threshold !== undefined) input.topic.threshold = threshold;
  if (list(d.nextPage).length > 0) input.nextPage = list(d.nextPage);
  lines(d.extract).forEach((line, i) => {
    const m = /^([^:：]+)[:：]\s*(.*?)(?:\s+\/(.*)\/)?$/u.exec(line);
    if (m === null) return add('extract', `line ${i + 1}: write 'name: label, label /regex/'`);
    const regex = m[3];
    input.extract![m[1]!.trim()] = { keywords: list(m[2]!), ...(regex !== undefined && { regex }) };
  });
  const maxHamming = number('maxHamming', d.maxHamming);
  if (maxHamming !== undefined) input.nearDuplicate = { maxHamming };
  if (lines(d.search).length > 0 || d.sitemaps) input.seeds = { search: lines(d.search), sitemaps: d.sitemaps };
  let template: Template | null = null;
  try {
    template = parseTemplate(input);
  } catch (e) {
    if (!(e instanceof TemplateValidationError)) throw e;
    for (const issue of e.issues) {
      const field = TEMPLATE_FIELDS.find((f) => issue.path === f.path || issue.path.startsWith(`${f.path}.`)) ?? TEMPLATE_FIELDS[0]!;
      const rest = issue.path === field.path ? [] : issue.path.slice(field.path.length + 1).split('.');
      add(field.key, describe(rest, issue.message));
    }
  }
  return { template: Object.keys(issues).length === 0 ? template : null, issues };
}

/** 'term *2 = synonym, synonym' or a bare term. */
function keywordOf(line: string): TemplateInput['topic']['keywords'][number] {
  const m = /^(.*?)(?:\s*\*\s*(\S+))?(?:\s*=\s*(.*))?$/u.exec(line)!;
  const term = m[1]!.trim();
  if (m[2] === undefined && m[3] === undefined) return term;
  return { term, ...(m[2] !== undefined && { weight: Number(m[2]) }), ...(m[3] !== undefined && { synonyms: list(m[3]) }) };
}

/** "line 2, weight: Too small ..." for topic.keywords.1.weight; "email, regex: ..." for extract.email.regex. */
function describe(rest: string[], message: string): string {
  if (rest.length === 0) return message;
  const [head, ...tail] = rest;
  const where = /^\d+$/.test(head!) ? `line ${Number(head) + 1}` : head!;
  return `${where}${tail.length > 0 ? `, ${tail.join('.')}` : ''}: ${message}`;
}
