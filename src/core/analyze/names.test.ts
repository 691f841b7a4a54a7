/** Feature names: words, spellings, and what the matcher finds (and must not). */
import { describe, expect, it } from 'vitest';
import { categoryOf, inRanges, isTestPath, lexicalComments } from './files';
import { compileNameMatcher, featureWords, nameVariants, splitWords } from './names';

describe('featureWords', () => {
  const cases: Array<[string, string[]]> = [
    ['notifications', ['notifications']],
    ['newCheckout', ['new', 'checkout']],
    ['NewCheckout', ['new', 'checkout']],
    ['new_checkout', ['new', 'checkout']],
    ['new-checkout', ['new', 'checkout']],
    ['NEW_CHECKOUT', ['new', 'checkout']],
    ['new checkout', ['new', 'checkout']],
    ['enableNewCheckout', ['new', 'checkout']],
    ['ENABLE_NEW_CHECKOUT_FLAG', ['new', 'checkout']],
    ['feature-flag-dark-mode', ['dark', 'mode']],
    ['isDarkModeEnabled', ['dark', 'mode']],
    ['HTTPProxy', ['http', 'proxy']],
    ['enable', ['enable']],
    ['flag', ['flag']],
    ['---', []],
  ];
  it.each(cases)('%s', (name, want) => expect(featureWords(name)).toEqual(want));
  it('splits acronyms and digits', () =>
    expect(splitWords('parseHTMLDoc2Go')).toEqual(['parse', 'html', 'doc2', 'go']));
});

describe('nameVariants', () => {
  it('spells the words in every case style, with and without framing words', () => {
    expect(nameVariants(['new', 'checkout'])).toEqual([
      'newCheckout',
      'NewCheckout',
      'new_checkout',
      'new-checkout',
      'NEW_CHECKOUT',
      'new checkout',
      'enableNewCheckout',
      'isNewCheckoutEnabled',
      'newCheckoutEnabled',
      'new-checkout-flag',
      'ENABLE_NEW_CHECKOUT',
      'FEATURE_NEW_CHECKOUT',
      'NEW_CHECKOUT_ENABLED',
    ]);
  });
});

describe('compileNameMatcher', () => {
  const checkout = compileNameMatcher(['new', 'checkout']);
  const notifications = compileNameMatcher(['notifications']);
  const matches: Array<[string, ReturnType<typeof compileNameMatcher>, string, string[]]> = [
    ['camelCase', checkout, 'const newCheckout = 1', ['newCheckout']],
    ['PascalCase inside an identifier', checkout, '<NewCheckoutPage />', ['NewCheckout']],
    ['snake_case', checkout, 'new_checkout', ['new_checkout']],
    ['kebab-case in a string', checkout, "variation('new-checkout')", ['new-checkout']],
    [
      'SCREAMING_CASE with prefix',
      checkout,
      'process.env.NEXT_PUBLIC_FEATURE_NEW_CHECKOUT',
      ['NEW_CHECKOUT'],
    ],
    ['enable prefix', checkout, 'enableNewCheckout()', ['NewCheckout']],
    ['words in prose', checkout, 'The new checkout flow', ['new checkout']],
    ['plural', checkout, 'NEW_CHECKOUTS', ['NEW_CHECKOUTS']],
    ['two on a line', checkout, 'newCheckout || new_checkout', ['newCheckout', 'new_checkout']],
    ['not inside a word', checkout, 'renewCheckout', []],
    ['not a longer word', checkout, 'newCheckoutable', []],
    ['not split words', checkout, 'new  checkout', []],
    ['singular of a plural name', notifications, 'NotificationBell', ['Notification']],
    ['plural', notifications, 'useNotifications()', ['Notifications']],
    ['a plural then a word', notifications, 'notificationsEnabled', ['notifications']],
    ['singular then a word starting with S', notifications, 'NotificationSettings', ['Notification']],
    ['acronym before', notifications, 'HTTPNotifications', ['Notifications']],
    ['not mid-word', notifications, 'pushnotifications', []],
    ['not all-caps run-on', notifications, 'PUSHNOTIFICATIONS', []],
  ];
  it.each(matches)('%s', (_n, m, text, want) => {
    expect(m.findAll(text).map(([s, e]) => text.slice(s, e))).toEqual(want);
  });
});

describe('file categories', () => {
  const cases: Array<[string, string]> = [
    ['src/app.ts', 'code'],
    ['src/app.test.ts', 'test'],
    ['src/app.spec.tsx', 'test'],
    ['src/__tests__/app.tsx', 'test'],
    ['tests/app.py', 'test'],
    ['test/fixtures/x.json', 'test'],
    ['e2e/login.ts', 'test'],
    ['cypress/e2e/login.cy.ts', 'test'],
    ['pkg/handler_test.go', 'test'],
    ['test_models.py', 'test'],
    ['docs/guide.md', 'docs'],
    ['README', 'docs'],
    ['notes.txt', 'docs'],
    ['package.json', 'config'],
    ['.env.local', 'config'],
    ['config.yaml', 'config'],
    ['styles.css', 'other'],
    ['src/latest.ts', 'code'],
    ['contest/entry.ts', 'code'],
  ];
  it.each(cases)('%s -> %s', (path, want) => expect(categoryOf(path)).toBe(want));
  it('isTestPath looks at folders and names only', () => {
    expect(isTestPath('attest/x.ts')).toBe(false);
    expect(isTestPath('src/testing.ts')).toBe(false);
  });
});

describe('lexicalComments', () => {
  const commented = (path: string, text: string) => {
    const r = lexicalComments(path, text);
    const out: string[] = [];
    for (let i = 0; i < r.length; i += 2) out.push(text.slice(r[i], r[i + 1]));
    return out;
  };
  it('C-like: line and block comments, not inside strings', () => {
    expect(commented('a.go', 'x := "// no" // yes\n/* block\n */ y')).toEqual(['// yes', '/* block\n */']);
  });
  it('hash languages', () => {
    expect(commented('a.py', "s = '# no'  # yes\nx = 1")).toEqual(['# yes']);
  });
  it('markup files add HTML comments', () => {
    expect(commented('a.vue', '<!-- hi -->\n<script>// x\n</script>')).toEqual(['<!-- hi -->', '// x']);
  });
  it('unknown languages have none', () => expect(lexicalComments('a.css', '/* x */')).toEqual([]));
  it('inRanges', () => {
    const r = [2, 5, 10, 12];
    expect([0, 2, 4, 5, 9, 10, 11, 12].map((o) => inRanges(r, o))).toEqual([
      false,
      true,
      true,
      false,
      false,
      true,
      true,
      false,
    ]);
  });
});
