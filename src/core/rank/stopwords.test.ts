import { describe, expect, it } from 'vitest';
import { queryWords } from './ranked';
import { inflectionsIn, stemOf } from './inflections';
import { dropStopwords, looksLikeIdentifier } from './stopwords';

describe('query words', () => {
  it("drops a sentence's stopwords and keeps every word written as an identifier", () => {
    expect(dropStopwords(['how', 'do', 'I', 'split', 'an', 'array', 'into', 'groups'])).toEqual([
      'split',
      'array',
      'groups',
    ]);
    // short queries are taken as written
    expect(dropStopwords(['by', 'id'])).toEqual(['by', 'id']);
    // identifiers are never stopwords, even when their letters are
    expect(dropStopwords(['where', 'is', 'It', 'the', 'this.on', '_a', 'of2', 'isA'])).toEqual([
      'this.on',
      '_a',
      'of2',
      'isA',
    ]);
    // all stopwords: kept whole rather than asking nothing
    expect(dropStopwords(['what', 'is', 'this'])).toEqual(['what', 'is', 'this']);
    // code words that are also English stay
    expect(dropStopwords(['get', 'the', 'new', 'value', 'or', 'return', 'null'])).toEqual([
      'get',
      'new',
      'value',
      'or',
      'return',
      'null',
    ]);
  });
  it('tells identifiers by how they are written', () => {
    for (const w of ['getUserById', 'user_id', '$el', '_private', 'utf8', 'path.join', 'init('])
      expect(looksLikeIdentifier(w), w).toBe(true);
    for (const w of ['the', 'The', 'user', 'Where']) expect(looksLikeIdentifier(w), w).toBe(false);
  });
  it('splits identifiers and drops stopwords in queryWords', () => {
    expect(queryWords('user by id').words).toEqual(['user', 'id']);
    expect(queryWords('getUserById').words).toEqual(['get', 'user', 'by', 'id']);
    expect(queryWords('getUserById').joined).toBe('getuserbyid');
    // each word once; "by" stays as a part of the identifier
    expect(queryWords('find the user by getUserById').words).toEqual(['find', 'user', 'get', 'by', 'id']);
  });
});

describe('inflections', () => {
  it.each([
    ['sorts', 'sort'],
    ['sorted', 'sort'],
    ['sorting', 'sort'],
    ['entries', 'entry'],
    ['matches', 'match'],
    ['parses', 'pars'],
    ['parsed', 'pars'],
    ['parse', 'pars'],
    ['running', 'run'],
    ['dropped', 'drop'],
    ['class', 'class'],
    ['status', 'status'],
    ['ids', 'ids'],
  ])('stemOf(%s) is %s', (word, stem) => {
    expect(stemOf(word)).toBe(stem);
  });
  it("finds the vocabulary's forms sharing a word's stem, not the word itself", () => {
    const vocab = [
      'sort',
      'sorted',
      'sorter',
      'sorting',
      'sorts',
      'resort',
      'place',
      'places',
      'placement',
      'x1',
    ];
    const key = {};
    expect(inflectionsIn(key, vocab.length, () => vocab, 'sorting').sort()).toEqual([
      'sort',
      'sorted',
      'sorts',
    ]);
    expect(inflectionsIn(key, vocab.length, () => vocab, 'places')).toEqual(['place']);
    expect(inflectionsIn(key, vocab.length, () => vocab, 'get')).toEqual([]); // short words are exact
    // the table is rebuilt when the vocabulary grows
    expect(inflectionsIn(key, vocab.length + 1, () => [...vocab, 'placed'], 'places').sort()).toEqual([
      'place',
      'placed',
    ]);
  });
});
