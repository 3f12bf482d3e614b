import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hasPrefix, isOnePhrase, QuerySyntaxError, queryTerms, toFtsQuery } from '../../../electron/engine/store/searchQuery.js';

describe('search query', () => {
  it('quotes every word, keeps operators, phrases, prefixes and parentheses', () => {
    assert.equal(toFtsQuery('library archive'), '("library" AND "archive")');
    assert.equal(toFtsQuery('"rare books" OR manuscript*'), '("rare books" OR "manuscript"*)');
    assert.equal(toFtsQuery('library NOT archive'), '("library" NOT "archive")');
    assert.equal(toFtsQuery('(a OR b) AND c'), '(("a" OR "b") AND "c")');
    // FTS5 keywords and column filters typed in lower case, and punctuation, are plain text.
    assert.equal(toFtsQuery('not body:x "say ""hi"'), '("not" AND "body:x" AND "say " AND "hi")');
  });

  it('tells a query of one phrase, word or prefix from any other', () => {
    for (const q of ['library', '"rare books"', 'manuscript*', '("rare books")', 'body:x', '東京都']) assert.ok(isOnePhrase(toFtsQuery(q)), q);
    for (const q of ['rare books', '"rare" "books"', 'library OR archive', 'library NOT archive']) assert.ok(!isOnePhrase(toFtsQuery(q)), q);
  });

  it('splits CJK words the way the index does, so a word matches as a phrase of its parts', () => {
    assert.equal(toFtsQuery('東京都'), '"東京\u200B都"');
  });

  it('says what is wrong instead of passing FTS5 a broken query', () => {
    const cases: [string, RegExp][] = [
      ['"unclosed phrase', /unmatched quote at character 1/],
      ['NOT archive', /NOT needs a word or phrase before it/],
      ['library OR', /OR needs a word or phrase after it/],
      ['(library', /unmatched "\("/],
      ['library)', /unmatched "\)"/],
      ['  ', /empty query/],
      ['- * ""', /empty query/],
    ];
    for (const [q, message] of cases) assert.throws(() => toFtsQuery(q), (e: unknown) => e instanceof QuerySyntaxError && message.test(e.message), q);
  });

  it('refuses a query past 2,000 characters or nested too deep, with a clear error instead of a stack overflow', () => {
    const nested = '('.repeat(2500) + 'x' + ')'.repeat(2500);
    assert.throws(() => toFtsQuery(nested), (e: unknown) => e instanceof QuerySyntaxError && /5001 characters long; at most 2000/.test(e.message));
    const deep = '('.repeat(999) + 'x' + ')'.repeat(999);
    assert.throws(() => toFtsQuery(deep), (e: unknown) => e instanceof QuerySyntaxError && /nested more than 100 deep/.test(e.message));
    assert.equal(toFtsQuery('('.repeat(100) + 'x' + ')'.repeat(100)), '"x"');
    assert.equal(toFtsQuery('library '.repeat(250).trim()).split(' AND ').length, 250);
  });

  it('tells a query with a prefix from one without', () => {
    assert.equal(hasPrefix('library catal*'), true);
    assert.equal(hasPrefix('"rare books"* NOT x'), true);
    assert.equal(hasPrefix('"rare books*" library'), false, 'a * inside a phrase is text');
    assert.equal(hasPrefix('library - *'), false);
  });

  it('lists the words to highlight, not those after NOT', () => {
    assert.deepEqual(queryTerms('"rare books" library NOT archive cat*'), ['rare books', 'library', 'cat']);
    assert.deepEqual(queryTerms('"unclosed library'), ['unclosed', 'library']);
  });
});
