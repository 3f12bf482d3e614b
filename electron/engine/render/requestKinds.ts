/**
 * What a rendered page's request of each resource type is to a crawl (local or cluster). Requisites
 * are fetched as a static page's images and scripts are (from other hosts too, unless the job says
 * otherwise); everything else a page asks for (fetch(), XHR, beacons) is data, fetched only inside
 * the scope.
 */
export const REQUISITES: Readonly<Record<string, { via: string; typeHint: string | null }>> = {
  document: { via: 'iframe', typeHint: 'html' },
  stylesheet: { via: 'link', typeHint: 'css' },
  image: { via: 'img', typeHint: null },
  media: { via: 'media', typeHint: null },
  font: { via: 'font', typeHint: null },
  script: { via: 'script', typeHint: null },
  texttrack: { via: 'track', typeHint: null },
};
