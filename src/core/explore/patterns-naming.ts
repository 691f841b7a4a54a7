/** The "Naming" patterns of explore's pattern analyzer (patterns.ts): file names per language group, function and constant names. */
import { baseName, langOf, type Lang, plural } from './conventions';
import { type Choice, pick, share, type Tally } from './pattern-tally';
import { identifierStyle } from './patterns-js';
import type { Pattern } from './types';

const GROUP: Record<Lang, string> = {
  ts: 'JS/TS',
  js: 'JS/TS',
  python: 'Python',
  go: 'Go',
  rust: 'Rust',
  c: 'C/C++',
  cpp: 'C/C++',
  java: 'Java',
  kotlin: 'Kotlin',
  csharp: 'C#',
  swift: 'Swift',
  ruby: 'Ruby',
  php: 'PHP',
  shell: 'shell',
};

const FILE_STYLES: Array<[string, string]> = [
  ['kebab', 'kebab-case'],
  ['snake', 'snake_case'],
  ['camel', 'camelCase'],
  ['pascal', 'PascalCase'],
  ['upper', 'UPPER_CASE'],
  ['other', 'mixed'],
];

/** A file name's style from its stem (before the first dot; a test prefix or suffix and leading underscores dropped). */
export function fileNameStyle(path: string, lang: Lang): string | null {
  const name = baseName(path);
  if (name.startsWith('.')) return null;
  let stem = name.slice(0, name.indexOf('.') > 0 ? name.indexOf('.') : name.length);
  if (/^__\w+__$/.test(stem)) return null;
  if (lang === 'python') stem = stem.replace(/^test_/, '').replace(/_test$/, '');
  if (lang === 'go') stem = stem.replace(/_test$/, '');
  stem = stem.replace(/^_+/, '');
  if (stem === '') return null;
  if (/^[a-z0-9]+(?:-[a-z0-9]+)+$/.test(stem)) return 'kebab';
  const style = identifierStyle(stem);
  return style === 'single' ? 'single' : style;
}

export function naming(tally: Tally, paths: string[]): Array<Pattern | null> {
  const byGroup = new Map<string, Map<string, string[]>>();
  for (const path of paths) {
    const lang = langOf(path);
    if (lang === null) continue;
    const style = fileNameStyle(path, lang);
    if (style === null) continue;
    const g = GROUP[lang];
    const styles = byGroup.get(g) ?? new Map<string, string[]>();
    styles.set(style, [...(styles.get(style) ?? []), path].slice(0, Math.max(tally.maxExamples, 1)));
    tally.add(`name.${g}.${style}`);
    byGroup.set(g, styles);
  }
  const out: Array<Pattern | null> = [];
  for (const [g, styles] of [...byGroup].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    const single = tally.count(`name.${g}.single`);
    const choices = FILE_STYLES.map(([style, label]) => ({
      statement: `${label} file names`,
      label,
      count: tally.count(`name.${g}.${style}`),
      examples: (styles.get(style) ?? []).slice(0, tally.maxExamples).map((path) => ({ path })),
    }));
    out.push(
      share(
        `Naming: ${g} file names`,
        choices,
        `multi-word ${g} file names`,
        single > 0 ? `; ${plural(single, 'one-word name')}` : '',
      ),
    );
  }
  const fnChoices = (prefix: string): Choice[] => [
    pick(tally, `${prefix}.camel`, 'camelCase function names', 'camelCase'),
    pick(tally, `${prefix}.snake`, 'snake_case function names', 'snake_case'),
    pick(tally, `${prefix}.pascal`, 'PascalCase function names', 'PascalCase'),
  ];
  out.push(
    share('Naming: JS/TS functions', fnChoices('js.fn'), 'multi-word JS/TS function names'),
    share('Naming: Python functions', fnChoices('py.fn'), 'multi-word Python function names'),
    share(
      'Naming: JS/TS constants',
      [
        pick(tally, 'js.const.upper', 'UPPER_SNAKE_CASE for top-level literal constants', 'UPPER_SNAKE_CASE'),
        pick(tally, 'js.const.other', 'camelCase for top-level literal constants', 'camelCase'),
      ],
      'top-level constants bound to a literal',
    ),
    share(
      'Naming: Python constants',
      [
        pick(
          tally,
          'py.const.upper',
          'UPPER_SNAKE_CASE for module-level literal constants',
          'UPPER_SNAKE_CASE',
        ),
        pick(tally, 'py.const.other', 'lower-case names for module-level literal constants', 'lower case'),
      ],
      'module-level names bound to a literal',
    ),
  );
  return out;
}
