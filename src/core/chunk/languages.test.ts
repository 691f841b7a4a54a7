/**
 * The languages added in issue 15 (C, C++, Java, C#, Kotlin, Swift, Ruby, PHP, Bash, CSS,
 * SCSS/Less, HTML) and which paths they take. Each fixture is a hand-written file under
 * fixtures/ (stored with a `.txt` suffix) whose chunks are all listed. Their tags.scm:
 * tags.test.ts; the lazy loading of grammars: grammar-loading.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { chunksOf, fixture, type Row } from './rows.testutil';
import { nodeGrammarLoader } from '../../adapters/node/grammars';
import { Chunker, GRAMMAR_LANGUAGES, grammarLanguageOf, languageForPath } from './index';
import type { Chunk } from './types';

let chunker: Chunker;
beforeAll(async () => {
  chunker = await Chunker.create(nodeGrammarLoader);
});

const FIXTURES: { file: string; want: Row[] }[] = [
  {
    file: 'sample.c',
    want: [
      [6, 7, 'macro', 'RING_CAP'], // comment attached; the include guard `#define RING_H` has no value: none
      [8, 8, 'macro', 'RING_MASK'],
      [10, 16, 'struct', 'ring'],
      [18, 20, 'struct', 'point_t'], // anonymous struct: the typedef's name
      [22, 25, 'struct', 'node'], // `typedef struct node {...} node;`: one chunk
      [27, 27, 'type', 'ring_size_t'],
      [28, 28, 'type', 'ring_cb'], // function pointer typedef
      [30, 30, 'enum', 'ring_state'],
      [32, 35, 'struct', 'word'],
      [37, 37, 'function', 'ring_push'], // a prototype
      [39, 46, 'function', 'ring_pop'], // `struct local` inside it is not a chunk
      [48, 48, 'function', 'ring_name'], // `char *ring_name(void)`
    ],
  },
  {
    file: 'sample.cpp',
    want: [
      [3, 39, 'module', 'geo'],
      [5, 11, 'class', 'Shape'],
      [8, 8, 'method', 'Shape.~Shape'],
      [9, 9, 'method', 'Shape.area'],
      [10, 10, 'method', 'Shape.name'],
      [13, 21, 'struct', 'Box'], // from its template line
      [15, 15, 'method', 'Box.Box'],
      [16, 16, 'method', 'Box.area'],
      [17, 17, 'method', 'Box.operator=='],
      [23, 24, 'method', 'Box.Box'], // out of class: Box<T>::Box
      [26, 30, 'method', 'Box.area'], // the lambda inside is not a chunk
      [32, 34, 'module', 'detail'],
      [33, 33, 'function', 'clamp'],
      [36, 36, 'type', 'Id'],
      [37, 37, 'enum', 'Unit'],
      [42, 42, 'function', 'helper'], // anonymous namespace: transparent
      [45, 45, 'function', 'clamp'], // geo::detail::clamp: detail is a namespace of this file
      [47, 47, 'function', 'main'],
    ],
  },
  {
    file: 'sample.java',
    want: [
      [6, 42, 'class', 'Cart'],
      [11, 11, 'method', 'Cart.Cart'],
      [13, 20, 'method', 'Cart.add'], // comment + annotation; the anonymous Runnable's run is not a chunk
      [22, 24, 'class', 'Line'],
      [23, 23, 'method', 'Line.quantity'],
      [26, 28, 'interface', 'Visitor'],
      [27, 27, 'method', 'Visitor.visit'],
      [30, 35, 'enum', 'Status'],
      [34, 34, 'method', 'Status.done'],
      [37, 41, 'class', 'Total'],
      [38, 40, 'method', 'Total.Total'], // compact record constructor
      [44, 46, 'interface', 'Audited'], // @interface
    ],
  },
  {
    file: 'sample.cs',
    want: [
      [3, 42, 'module', 'Shop.Orders'], // a qualified name: not in tags.scm, in our patterns
      [5, 24, 'class', 'Order'], // /// doc + [Serializable]; the property Id is not a chunk
      [9, 9, 'method', 'Order.Order'],
      [13, 17, 'method', 'Order.Total'],
      [19, 19, 'method', 'Order.operator +'],
      [21, 21, 'method', 'Order.~Order'],
      [23, 23, 'class', 'Line'],
      [23, 23, 'method', 'Line.Bump'],
      [26, 29, 'interface', 'IOrder'],
      [28, 28, 'method', 'IOrder.Cancel'],
      [31, 34, 'struct', 'Money'],
      [36, 36, 'enum', 'State'],
      [38, 38, 'class', 'Person'],
      [39, 39, 'struct', 'Point'], // record struct
      [41, 41, 'type', 'Changed'],
    ],
  },
  {
    file: 'sample.kt',
    want: [
      [5, 15, 'class', 'Note'],
      [8, 8, 'method', 'Note.constructor'],
      [10, 10, 'method', 'Note.title'],
      [13, 13, 'method', 'Note.empty'], // in the companion object
      [17, 19, 'interface', 'Repo'],
      [18, 18, 'method', 'Repo.load'],
      [21, 26, 'enum', 'Color'],
      [25, 25, 'method', 'Color.hex'],
      [28, 32, 'class', 'Registry'],
      [29, 31, 'method', 'Registry.register'], // the object expression's run is not a chunk
      [34, 34, 'type', 'Handler'],
      [36, 37, 'function', 'second'], // extension function
      [39, 42, 'function', 'main'], // `local` inside is not a chunk
    ],
  },
  {
    file: 'sample.swift',
    want: [
      [3, 7, 'interface', 'Shape'],
      [6, 6, 'method', 'Shape.describe'],
      [9, 21, 'class', 'Circle'],
      [13, 13, 'method', 'Circle.init'],
      [15, 15, 'method', 'Circle.deinit'],
      [19, 20, 'method', 'Circle.describe'],
      [23, 25, 'struct', 'Point'],
      [27, 31, 'enum', 'Direction'],
      [30, 30, 'method', 'Direction.flipped'],
      [33, 36, 'impl', 'Point'], // extension
      [35, 35, 'method', 'Point.moved'],
      [38, 40, 'class', 'Counter'],
      [39, 39, 'method', 'Counter.increment'],
      [42, 42, 'type', 'Pair'],
      [44, 46, 'function', 'main'],
    ],
  },
  {
    file: 'sample.rb',
    want: [
      [5, 39, 'module', 'Billing'],
      [9, 28, 'class', 'Invoice'],
      [13, 15, 'method', 'Invoice.initialize'],
      [17, 19, 'method', 'Invoice.parse'], // def self.parse
      [22, 24, 'method', 'Invoice.empty'], // inside class << self; `alias` is not a chunk
      [30, 32, 'class', 'Billing::Tax'], // named as written, its methods by the last segment
      [31, 31, 'method', 'Tax.rate'],
      [34, 38, 'method', 'Billing.helper'], // the def inside the block is not a chunk
      [41, 43, 'function', 'top_level'],
    ],
  },
  {
    file: 'sample.php',
    want: [
      [8, 26, 'class', 'User'], // doc comment + #[Entity]; `namespace App\\Models;` has no body: no chunk
      [16, 19, 'method', 'User.__construct'],
      [21, 25, 'method', 'User.find'],
      [28, 31, 'interface', 'Shape'],
      [30, 30, 'method', 'Shape.area'],
      [33, 36, 'trait', 'HasName'],
      [35, 35, 'method', 'HasName.name'],
      [38, 42, 'enum', 'Suit'],
      [41, 41, 'method', 'Suit.color'],
      [45, 49, 'function', 'helper'], // declared inside a top-level if; `inner` is not a chunk
    ],
  },
  {
    file: 'sample.sh',
    want: [
      [4, 7, 'function', 'build'],
      [9, 11, 'function', 'clean'],
      [14, 14, 'function', 'ci_setup'], // inside a top-level if
      [17, 20, 'function', 'main'], // `inner` inside is not a chunk
    ],
  },
  {
    file: 'sample.css',
    want: [
      [3, 7, 'rule', '.card, .panel > .title'], // whitespace collapsed; @import is no chunk
      [9, 9, 'rule', '.card:hover'],
      [11, 15, 'rule', '@media (max-width: 600px)'],
      [12, 14, 'rule', '.card'],
      [17, 19, 'rule', '@supports (display: grid)'],
      [18, 18, 'rule', '.grid'],
      [21, 24, 'rule', '@keyframes spin'], // from/to are not chunks
      [26, 28, 'rule', '@font-face'],
      [30, 32, 'rule', '.nav'],
      [31, 31, 'rule', '& a'], // CSS nesting
      [34, 34, 'rule', 'body > main#content article.post:first-child::before, .a-very-long-selector-nam…'],
    ],
  },
  {
    file: 'sample.scss',
    want: [
      [9, 13, 'function', 'card'], // @mixin, with the // comment; $variables and @use are not chunks
      [15, 17, 'function', 'double'],
      [19, 19, 'rule', '%placeholder'], // names come from the original text
      [21, 27, 'rule', '.card'],
      [23, 23, 'rule', '&:hover'],
      [24, 24, 'rule', '.col-#{$i}'],
      [29, 31, 'rule', '@each $name, $glyph in $icons'],
      [30, 30, 'rule', '.icon-#{$name}:before'],
    ],
  },
  {
    file: 'sample.less',
    want: [
      [5, 8, 'rule', '.bordered'], // a parametric mixin: named by its selector
      [10, 15, 'rule', '.box'],
      [13, 13, 'rule', '&:hover'],
      [14, 14, 'rule', '.inner-@{name}'],
      [17, 19, 'rule', '@media (max-width: @screen)'],
      [18, 18, 'rule', '.box'],
      [21, 21, 'rule', '.after'],
    ],
  },
  {
    file: 'sample.html',
    want: [
      [5, 5, 'element', '#theme'],
      [8, 18, 'element', '#app'], // the comment above attaches
      [10, 13, 'element', '#login'],
      [11, 11, 'element', '#user'], // a void element ends with its tag
      [12, 12, 'element', '#password'], // ID='...' in capitals
      [16, 16, 'element', '#note'], // `id=""` is none
      [19, 21, 'element', '#row-template'],
      [20, 20, 'element', '#cell'],
      [22, 22, 'element', '#confirm'],
      [23, 23, 'element', '#boot'],
    ],
  },
];

describe('fixtures of the issue-15 languages', () => {
  it.each(FIXTURES)('$file', async ({ file, want }) => {
    const path = `src/${file}`;
    expect(await chunker.chunk(path, fixture(file))).toEqual(chunksOf(path, want));
  });

  it.each(FIXTURES)('$file with CRLF line ends and a BOM gives the same chunks', async ({ file, want }) => {
    expect(await chunker.chunk(file, '\uFEFF' + fixture(file).replace(/\n/g, '\r\n'))).toEqual(
      chunksOf(file, want),
    );
  });
});

const BROKEN: { path: string; text: string; want: Row[] }[] = [
  {
    path: 'b.c',
    text: 'int ok(void) { return 1; }\n\nint broken( {\n  if (x\n}\n\nstruct after { int x; };\nint later(void) { return 2; }\n',
    want: [
      [1, 1, 'function', 'ok'],
      [7, 7, 'struct', 'after'],
      [8, 8, 'function', 'later'],
    ],
  },
  {
    path: 'b.cpp',
    text: 'class A {\n  void f() { if ( }\n};\nvoid A::g() {}\nnamespace n { int h(; }\nint k() { return 0; }\n',
    want: [
      [1, 3, 'class', 'A'],
      [2, 2, 'method', 'A.f'],
      [4, 4, 'method', 'A.g'],
      [5, 5, 'module', 'n'],
      [6, 6, 'function', 'k'],
    ],
  },
  {
    path: 'B.java',
    text: 'class A {\n  void f() { int x = ; }\n  void g( {}\n}\nclass B { void h() {} }\n',
    want: [
      [1, 4, 'class', 'A'],
      [2, 2, 'method', 'A.f'],
      [3, 3, 'method', 'A.g'],
      [5, 5, 'class', 'B'],
      [5, 5, 'method', 'B.h'],
    ],
  },
  {
    path: 'b.cs',
    text: 'namespace N {\n  class A { void F() { var x = ; } }\n  class B { void G( }\n}\nclass C { void H() {} }\n',
    want: [
      [1, 4, 'module', 'N'],
      [2, 2, 'class', 'A'],
      [2, 2, 'method', 'A.F'],
      [3, 3, 'class', 'B'],
      [5, 5, 'class', 'C'],
      [5, 5, 'method', 'C.H'],
    ],
  },
  {
    path: 'b.kt', // the Kotlin grammar recovers little after `fun g(`
    text: 'class A {\n  fun f() { val x = }\n}\nfun g( {}\nfun h() {}\n',
    want: [
      [1, 3, 'class', 'A'],
      [2, 2, 'method', 'A.f'],
    ],
  },
  {
    path: 'b.swift',
    text: 'class A {\n  func f() { let x = }\n}\nfunc g( {}\nfunc h() {}\n',
    want: [
      [1, 3, 'class', 'A'],
      [2, 2, 'method', 'A.f'],
      [4, 4, 'function', 'g'],
      [5, 5, 'function', 'h'],
    ],
  },
  {
    path: 'b.rb', // the unclosed parameter list costs the class around it
    text: 'class A\n  def f(\n  end\nend\ndef g\n  1 +\nend\nmodule M\n  def h; end\nend\n',
    want: [
      [2, 4, 'function', 'f'],
      [8, 10, 'module', 'M'],
      [9, 9, 'method', 'M.h'],
    ],
  },
  {
    path: 'b.php',
    text: '<?php\nclass A {\n  function f() { $x = ; }\n}\nfunction g( {}\nfunction h() {}\n',
    want: [
      [2, 4, 'class', 'A'],
      [3, 3, 'method', 'A.f'],
      [5, 5, 'function', 'g'],
      [6, 6, 'function', 'h'],
    ],
  },
  {
    path: 'b.sh',
    text: 'f() {\n  if then\n}\ng() { echo ok; }\n',
    want: [[4, 4, 'function', 'g']],
  },
  {
    path: 'b.css',
    text: '.a { color: red;\n.b { x: y; }\n@media (x { .c { } }\n.d { }\n',
    want: [
      [1, 4, 'rule', '.a'],
      [2, 2, 'rule', '.b'],
      [3, 3, 'rule', '@media (x'],
      [3, 3, 'rule', '.c'],
      [4, 4, 'rule', '.d'],
    ],
  },
  {
    path: 'b.scss',
    text: '.a { $x: ; &:hover { } \n.b { }\n',
    want: [
      [1, 2, 'rule', '.a'],
      [1, 1, 'rule', '&:hover'],
      [2, 2, 'rule', '.b'],
    ],
  },
  {
    path: 'b.html',
    text: '<div id="a"><p id="b">unclosed\n<span id="c"></div>\n<section id="d"></section>\n',
    want: [
      [1, 2, 'element', '#a'],
      [1, 2, 'element', '#b'],
      [2, 2, 'element', '#c'],
      [3, 3, 'element', '#d'],
    ],
  },
  {
    path: 'u.scss', // names are cut from the original text by the parser's indices: non-ASCII before them is fine
    text: '// é😀 $x\n$y: "é😀;";\n.a-é { x: $y }\n.b { }\n',
    want: [
      [3, 3, 'rule', '.a-é'],
      [4, 4, 'rule', '.b'],
    ],
  },
];

describe('broken input keeps what tree-sitter recovers', () => {
  it.each(BROKEN)('$path', async ({ path, text, want }) => {
    expect(await chunker.chunk(path, text)).toEqual(chunksOf(path, want));
  });

  it('never throws on garbage in any new language, and empty files give nothing', async () => {
    const garbage = [
      '}}}{{{',
      '\0\0\0',
      'def class fn func (((',
      '<<<>>>'.repeat(100),
      '"unterminated',
      '\u0000'.repeat(10) + '\uFFFF',
      '#{$',
      '<?php ?><?php',
      '@media {',
    ];
    const exts = [
      'c',
      'h',
      'cpp',
      'hpp',
      'java',
      'cs',
      'kt',
      'swift',
      'rb',
      'php',
      'sh',
      'css',
      'scss',
      'less',
      'html',
    ];
    for (const ext of exts) {
      expect(await chunker.chunk(`e.${ext}`, '')).toEqual([]);
      for (const g of garbage) expect(Array.isArray(await chunker.chunk(`g.${ext}`, g))).toBe(true);
    }
  });
});

describe('languageForPath and grammarLanguageOf', () => {
  it.each([
    ['a.c', 'c'],
    ['a.h', 'c'],
    ['a.cc', 'cpp'],
    ['a.cpp', 'cpp'],
    ['a.cxx', 'cpp'],
    ['a.hpp', 'cpp'],
    ['a.hh', 'cpp'],
    ['a.hxx', 'cpp'],
    ['A.java', 'java'],
    ['a.cs', 'csharp'],
    ['a.kt', 'kotlin'],
    ['build.gradle.kts', 'kotlin'],
    ['a.swift', 'swift'],
    ['a.rb', 'ruby'],
    ['tasks.rake', 'ruby'],
    ['x.gemspec', 'ruby'],
    ['Rakefile', 'ruby'],
    ['sub/Gemfile', 'ruby'],
    ['Gemfile.lock', null],
    ['rakefile', null],
    ['a.php', 'php'],
    ['a.sh', 'bash'],
    ['a.bash', 'bash'],
    ['a.css', 'css'],
    ['a.scss', 'css'],
    ['a.less', 'css'],
    ['a.html', 'html'],
    ['a.htm', 'html'],
    ['a.C', null],
    ['a.CPP', null],
    ['a.json', null],
    ['a.vue', null],
  ] as const)('%s -> %s', (path, want) => {
    expect(languageForPath(path)).toBe(want);
    expect(grammarLanguageOf(path)).toBe(want);
  });

  it('markdown has a language but no grammar', () => {
    expect(languageForPath('a.md')).toBe('markdown');
    expect(grammarLanguageOf('a.md')).toBeNull();
    expect(grammarLanguageOf('a.ts')).toBe('typescript');
  });

  it('lists every grammar language once', () => {
    expect(new Set(GRAMMAR_LANGUAGES).size).toBe(GRAMMAR_LANGUAGES.length);
    expect(GRAMMAR_LANGUAGES).toHaveLength(17);
  });
});

describe('throughput (printed, not asserted)', () => {
  it('parses and chunks generated C', { timeout: 120_000 }, async () => {
    const unit = fixture('sample.c');
    const parts: string[] = [];
    for (let i = 0, size = 0; size < 1 << 20; i++) {
      parts.push(unit.replace(/\bring_(\w+)/g, `ring${i}_$1`)); // distinct names, as in a real code base
      size += parts[i].length + 1;
    }
    const text = parts.join('\n');
    await chunker.chunk('warm.c', unit);
    let ms = Infinity;
    let chunks: Chunk[] = [];
    for (let r = 0; r < 3; r++) {
      const t0 = performance.now();
      chunks = await chunker.chunk('big.c', text);
      ms = Math.min(ms, performance.now() - t0);
    }
    const mb = text.length / 1e6;
    console.log(
      `C: ${mb.toFixed(2)} MB, ${text.split('\n').length} lines, ${chunks.length} chunks: ${ms.toFixed(0)} ms, ${(mb / (ms / 1000)).toFixed(2)} MB/s (best of 3)`,
    );
    expect(chunks.length).toBeGreaterThan(1000);
  });
});
