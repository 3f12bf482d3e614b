import type { Template, TopicKeyword } from '../../../shared/template.js';
import { tokenize } from './tokens.js';

/** One keyword with its synonyms: any of its phrases counts as a mention of it. */
export interface Concept {
  weight: number;
  /** Each phrase as words; matched as a run of consecutive words. */
  phrases: string[][];
}

/**
 * A word list matcher: the keywords (phrases of one or more words, any language) of a topic,
 * counted in one pass over a page's words.
 */
export class KeywordMatcher {
  /** By first word: the concepts and phrases that start with it. */
  private readonly byFirst = new Map<string, { concept: number; phrase: string[] }[]>();

  constructor(readonly concepts: readonly Concept[]) {
    concepts.forEach((c, concept) => {
      for (const phrase of c.phrases) {
        if (phrase.length === 0) continue;
        const list = this.byFirst.get(phrase[0]!) ?? [];
        list.push({ concept, phrase });
        this.byFirst.set(phrase[0]!, list);
      }
    });
  }

  /** Mentions of each concept in `words`. */
  count(words: readonly string[]): number[] {
    const counts = new Array<number>(this.concepts.length).fill(0);
    for (let i = 0; i < words.length; i++) {
      const starts = this.byFirst.get(words[i]!);
      if (starts === undefined) continue;
      for (const { concept, phrase } of starts) {
        if (matchesAt(words, i, phrase)) counts[concept]!++;
      }
    }
    return counts;
  }

  /** Whether any concept is mentioned. */
  any(words: readonly string[]): boolean {
    return this.count(words).some((n) => n > 0);
  }
}

function matchesAt(words: readonly string[], i: number, phrase: readonly string[]): boolean {
  if (i + phrase.length > words.length) return false;
  for (let k = 1; k < phrase.length; k++) if (words[i + k] !== phrase[k]) return false;
  return true;
}

function conceptOf(k: TopicKeyword): Concept {
  if (typeof k === 'string') return { weight: 1, phrases: [tokenize(k)] };
  return { weight: k.weight, phrases: [k.term, ...k.synonyms].map((p) => tokenize(p)) };
}

/** The template's topic keywords as concepts. */
export function topicMatcher(t: Template): KeywordMatcher {
  return new KeywordMatcher(t.topic.keywords.map(conceptOf));
}

/** Plain keyword lists (a filter level, next-page labels), each keyword its own concept of weight 1. */
export function listMatcher(keywords: readonly string[]): KeywordMatcher {
  return new KeywordMatcher(keywords.map((k) => ({ weight: 1, phrases: [tokenize(k)] })));
}
