/**
 * Contact pages with known fields, in the markups that misled extraction: a contact table by
 * columns (labels in a header row, one team a row), a label with no value before the next label,
 * six-digit postcodes under a pattern that also allows five digits, several phone numbers for one
 * field, and schema.org data (JSON-LD, microdata, RDFa) beside visible text that says less.
 * Every field of a page is listed: a page without a value for it holds none.
 */

export const CONTACT_FIXTURE_TEMPLATE = {
  topic: { keywords: ['contact'] },
  extract: {
    name: { keywords: ['name', 'organisation', 'team'] },
    address: { keywords: ['address'], synonyms: ['地址'] },
    phone: { keywords: ['phone', 'telephone', 'tel'], synonyms: ['电话'], regex: '\\+?[0-9][0-9 ()\\-]{6,}[0-9]' },
    email: { keywords: ['email', 'e-mail'], regex: '[^@\\s:]+@[^@\\s]+\\.[a-z]+' },
    fax: { keywords: ['fax'], synonyms: ['传真'], regex: '\\+?[0-9][0-9 ()\\-]{6,}[0-9]' },
    postcode: { keywords: ['postcode', 'zip', 'postal code'], synonyms: ['邮编'], regex: '[0-9]{5}|[0-9]{6}' },
  },
};

export type ContactFields = Partial<Record<'name' | 'address' | 'phone' | 'email' | 'fax' | 'postcode', string[]>>;

export interface ContactPage {
  html: string;
  truth: ContactFields;
}

export const CONTACT_PAGES: ContactPage[] = [
  {
    // One team a row under a header row of labels: the header's next cell is another label.
    html: `<h1>Contact</h1><table><tr><th>Team</th><th>Phone</th><th>Email</th></tr>
<tr><td>Billing Team</td><td>0161 496 0000</td><td>billing@acme.example</td></tr></table>
<p>Address: 4 Mill Lane, Ashby. Postcode: 123456</p>`,
    truth: { name: ['Billing Team'], phone: ['0161 496 0000'], email: ['billing@acme.example'], address: ['4 Mill Lane, Ashby'], postcode: ['123456'] },
  },
  {
    // A label whose value is missing: the next label is not its value.
    html: `<dl><dt>Name</dt><dd>Riverside Water Trust</dd><dt>Fax</dt><dt>Phone</dt><dd>0117 496 0123</dd><dt>Address</dt><dd>9 Quay Street, Bristol</dd><dt>Postcode</dt><dd>405001</dd></dl>`,
    truth: { name: ['Riverside Water Trust'], phone: ['0117 496 0123'], address: ['9 Quay Street, Bristol'], postcode: ['405001'] },
  },
  {
    // Several phone numbers for one field, in one cell and under repeated labels.
    html: `<table><tr><th>Organisation</th><td>Eastmoor Library</td></tr><tr><th>Telephone</th><td>01632 960 111 / 01632 960 222</td></tr>
<tr><th>Fax</th><td>01632 960 333</td></tr><tr><th>Email</th><td>ask@eastmoor.example</td></tr></table>
<p>Tel: 07700 900 444</p><p>Address: 1 Castle Walk, Eastmoor</p><p>Zip: 90210</p>`,
    truth: { name: ['Eastmoor Library'], phone: ['01632 960 111', '01632 960 222', '07700 900 444'], fax: ['01632 960 333'], email: ['ask@eastmoor.example'], address: ['1 Castle Walk, Eastmoor'], postcode: ['90210'] },
  },
  {
    // JSON-LD says it all; the page shows a label before a label and a shortened phone.
    html: `<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Organization", "name": "Harbour Health Board",
 "email": "info@harbourhealth.example", "faxNumber": "+44 1632 960 555",
 "address": {"@type": "PostalAddress", "streetAddress": "2 Ferry Road", "addressLocality": "Harbourtown", "postalCode": "510630"},
 "contactPoint": [{"@type": "ContactPoint", "telephone": "+44 1632 960 500", "contactType": "customer service"},
                  {"@type": "ContactPoint", "telephone": "+44 1632 960 501", "contactType": "billing"}]}</script>
<h1>Harbour Health Board</h1><p><b>Phone</b> <b>Address</b></p><p>Call us on 960 500.</p>`,
    truth: { name: ['Harbour Health Board'], email: ['info@harbourhealth.example'], fax: ['+44 1632 960 555'], address: ['2 Ferry Road, Harbourtown'], postcode: ['510630'], phone: ['+44 1632 960 500', '+44 1632 960 501'] },
  },
  {
    // Microdata.
    html: `<div itemscope itemtype="https://schema.org/Organization"><h2 itemprop="name">Kestrel Housing</h2>
<div itemprop="address" itemscope itemtype="https://schema.org/PostalAddress"><span itemprop="streetAddress">7 Elm Grove</span>,
<span itemprop="addressLocality">Kestrel</span> <span itemprop="postalCode">200433</span></div>
<p>Call <span itemprop="telephone">0113 496 0777</span> or write to <a itemprop="email" href="mailto:homes@kestrel.example">homes@kestrel.example</a></p></div>`,
    truth: { name: ['Kestrel Housing'], address: ['7 Elm Grove, Kestrel'], postcode: ['200433'], phone: ['0113 496 0777'], email: ['homes@kestrel.example'] },
  },
  {
    // RDFa.
    html: `<div vocab="https://schema.org/" typeof="Organization"><span property="name">Northfield Council</span>
<div property="address" typeof="PostalAddress"><span property="streetAddress">3 Market Place</span>, <span property="addressLocality">Northfield</span>,
<span property="postalCode">310012</span></div><span property="telephone">0115 496 0888</span> <span property="faxNumber">0115 496 0889</span></div>`,
    truth: { name: ['Northfield Council'], address: ['3 Market Place, Northfield'], postcode: ['310012'], phone: ['0115 496 0888'], fax: ['0115 496 0889'] },
  },
  {
    // Running text and Chinese labels, a six-digit postcode.
    html: `<p>名称：东城区水务局</p><p>地址：北京市东城区长安街1号　邮编：100010</p><p>电话：010-6512 3456　传真：010-6512 3457</p>`,
    truth: { address: ['北京市东城区长安街1号'], postcode: ['100010'], phone: ['010-6512 3456'], fax: ['010-6512 3457'] },
  },
  {
    // A bold label with the value beside it; a label word inside a value is not a label.
    html: `<p><strong>Name:</strong> Quarry Hill Allotments Team</p><p><strong>Address:</strong> 12 Quarry Hill, Stoneham</p>
<p><strong>Phone:</strong> 01632 960 999</p><p><strong>E-mail:</strong> plots@quarry.example</p><p><strong>Postal code:</strong> 75001</p>`,
    truth: { name: ['Quarry Hill Allotments Team'], address: ['12 Quarry Hill, Stoneham'], phone: ['01632 960 999'], email: ['plots@quarry.example'], postcode: ['75001'] },
  },
];
