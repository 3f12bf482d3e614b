import type { Job } from '../../../shared/job.js';
import type { DublinCore } from '../../../shared/metadata.js';

/**
 * warcinfo's `operator` (WARC 1.1 section 6.4.2: "contact information for the operator who created
 * this WARC resource"): the organisation, its e-mail address and the contact the crawl announced in
 * its User-Agent, as far as the archivist gave them; null when none was given.
 */
export function warcOperator(p: { organization?: string; email?: string; contact?: string | null }): string | null {
  const parts = [p.organization?.trim(), p.email?.trim() && `<${p.email.trim()}>`, p.contact?.trim()].filter((s) => !!s);
  return parts.length > 0 ? parts.join(' ') : null;
}

/**
 * The crawl's warcinfo `operator` field, when the archivist set a contact: the job's contact (there
 * is no default), or the archive's source organisation and contact e-mail.
 */
export function operatorInfo(job: Job, m: DublinCore): { operator?: string } {
  const contact = job.contactUrl?.trim() || null;
  const email = m.contactEmail || undefined;
  const operator = contact || email ? warcOperator({ organization: m.sourceOrganization, ...(email && { email }), contact }) : null;
  return operator === null ? {} : { operator };
}
