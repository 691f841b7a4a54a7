import { describe, expect, it } from 'vitest';
import { identifierWords } from './identifier-words';

describe('identifierWords', () => {
  it('cuts camelCase humps, acronym ends, digits and separators by default', () => {
    expect(identifierWords('getUserById')).toEqual(['get', 'user', 'by', 'id']);
    expect(identifierWords('parseHTTPResponse')).toEqual(['parse', 'http', 'response']);
    expect(identifierWords('snake_case_name')).toEqual(['snake', 'case', 'name']);
    expect(identifierWords('parseHTMLDoc2Go')).toEqual(['parse', 'html', 'doc', '2', 'go']);
    expect(identifierWords('enable-new checkout')).toEqual(['enable', 'new', 'checkout']);
  });

  it("feature names' options: digits stay with their word (analyze/names.ts)", () => {
    expect(identifierWords('parseHTMLDoc2Go', { digits: false })).toEqual(['parse', 'html', 'doc2', 'go']);
    expect(identifierWords('enableNewCheckout', { digits: false })).toEqual(['enable', 'new', 'checkout']);
    expect(identifierWords('NEW_CHECKOUT', { digits: false })).toEqual(['new', 'checkout']);
    expect(identifierWords('--a--', { digits: false })).toEqual(['a']);
  });

  it("ranked search's options: cut at white space and '_' only, short parts dropped (rank/identifier-parts.ts)", () => {
    const ranked = (t: string) => identifierWords(t, { separators: /[\s_]+/, minChars: 2 });
    expect(ranked('utf8Decode')).toEqual(['utf', 'decode']);
    expect(ranked('xAxis')).toEqual(['axis']);
    expect(ranked('$fooBar')).toEqual(['$foo', 'bar']);
    expect(ranked('a.bC')).toEqual(['a.b']);
  });
});
