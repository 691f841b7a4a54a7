/**
 * Which icon a file or folder gets in the tree and the result lists: a small coloured badge
 * with a one- or two-character glyph for a language or format, or a drawn shape (folder,
 * image, plain file). Plain TS (tested in Node); FileIcon.tsx draws it. Names are matched
 * case-insensitively: exact names first (Dockerfile, LICENSE, lockfiles), then the extension.
 */

/** The badge colours (each has a light and a dark theme value in workspace.css). */
export type IconColor =
  'blue' | 'cyan' | 'yellow' | 'amber' | 'orange' | 'red' | 'purple' | 'green' | 'slate' | 'gray';

export type FileIconSpec =
  | { shape: 'folder'; open: boolean }
  | { shape: 'image' }
  | { shape: 'file' }
  | {
      shape: 'glyph';
      glyph: string;
      color: IconColor;
      /** What it stands for (a tooltip for sighted users; the icon itself is decorative). */ kind: string;
    };

const g = (glyph: string, color: IconColor, kind: string): FileIconSpec => ({
  shape: 'glyph',
  glyph,
  color,
  kind,
});

const BY_EXTENSION: Record<string, FileIconSpec> = {
  ts: g('TS', 'blue', 'TypeScript'),
  mts: g('TS', 'blue', 'TypeScript'),
  cts: g('TS', 'blue', 'TypeScript'),
  tsx: g('TX', 'cyan', 'TypeScript React'),
  js: g('JS', 'yellow', 'JavaScript'),
  mjs: g('JS', 'yellow', 'JavaScript'),
  cjs: g('JS', 'yellow', 'JavaScript'),
  jsx: g('JX', 'cyan', 'JavaScript React'),
  json: g('{}', 'amber', 'JSON'),
  jsonc: g('{}', 'amber', 'JSON'),
  json5: g('{}', 'amber', 'JSON'),
  md: g('M', 'slate', 'Markdown'),
  markdown: g('M', 'slate', 'Markdown'),
  mdx: g('M', 'slate', 'Markdown'),
  css: g('#', 'purple', 'CSS'),
  scss: g('#', 'purple', 'Sass'),
  sass: g('#', 'purple', 'Sass'),
  less: g('#', 'purple', 'Less'),
  html: g('<>', 'orange', 'HTML'),
  htm: g('<>', 'orange', 'HTML'),
  xml: g('<>', 'orange', 'XML'),
  vue: g('V', 'green', 'Vue'),
  svelte: g('S', 'orange', 'Svelte'),
  py: g('PY', 'blue', 'Python'),
  pyi: g('PY', 'blue', 'Python'),
  go: g('GO', 'cyan', 'Go'),
  rs: g('RS', 'orange', 'Rust'),
  c: g('C', 'blue', 'C'),
  h: g('H', 'purple', 'C header'),
  cc: g('C+', 'blue', 'C++'),
  cpp: g('C+', 'blue', 'C++'),
  cxx: g('C+', 'blue', 'C++'),
  hpp: g('H+', 'purple', 'C++ header'),
  hh: g('H+', 'purple', 'C++ header'),
  java: g('J', 'red', 'Java'),
  kt: g('K', 'purple', 'Kotlin'),
  kts: g('K', 'purple', 'Kotlin'),
  cs: g('C#', 'green', 'C#'),
  rb: g('RB', 'red', 'Ruby'),
  php: g('PH', 'purple', 'PHP'),
  swift: g('SW', 'orange', 'Swift'),
  sh: g('$', 'green', 'Shell'),
  bash: g('$', 'green', 'Shell'),
  zsh: g('$', 'green', 'Shell'),
  fish: g('$', 'green', 'Shell'),
  ps1: g('$', 'blue', 'PowerShell'),
  sql: g('SQ', 'amber', 'SQL'),
  yml: g('Y', 'red', 'YAML'),
  yaml: g('Y', 'red', 'YAML'),
  toml: g('T', 'gray', 'TOML'),
  ini: g('⚙', 'gray', 'Settings'),
  cfg: g('⚙', 'gray', 'Settings'),
  conf: g('⚙', 'gray', 'Settings'),
  env: g('⚙', 'gray', 'Settings'),
  lock: g('LK', 'gray', 'Lockfile'),
  wasm: g('WA', 'purple', 'WebAssembly'),
  graphql: g('GQ', 'purple', 'GraphQL'),
  gql: g('GQ', 'purple', 'GraphQL'),
  proto: g('PB', 'cyan', 'Protocol Buffers'),
  dart: g('D', 'cyan', 'Dart'),
  lua: g('LU', 'blue', 'Lua'),
  r: g('R', 'blue', 'R'),
  scala: g('SC', 'red', 'Scala'),
  ex: g('EX', 'purple', 'Elixir'),
  exs: g('EX', 'purple', 'Elixir'),
  erl: g('ER', 'red', 'Erlang'),
  hs: g('HS', 'purple', 'Haskell'),
  zig: g('Z', 'amber', 'Zig'),
  csv: g('≡', 'green', 'CSV'),
  tsv: g('≡', 'green', 'TSV'),
};

/** Image formats Quarry shows as pictures (ImageView). */
export const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set([
  'png',
  'jpg',
  'jpeg',
  'gif',
  'webp',
  'svg',
  'ico',
  'bmp',
  'avif',
]);

const BY_NAME: Record<string, FileIconSpec> = {
  dockerfile: g('DK', 'blue', 'Dockerfile'),
  containerfile: g('DK', 'blue', 'Dockerfile'),
  makefile: g('MK', 'gray', 'Makefile'),
  gnumakefile: g('MK', 'gray', 'Makefile'),
  license: g('©', 'amber', 'Licence'),
  'license.md': g('©', 'amber', 'Licence'),
  'license.txt': g('©', 'amber', 'Licence'),
  licence: g('©', 'amber', 'Licence'),
  copying: g('©', 'amber', 'Licence'),
  '.gitignore': g('GI', 'orange', 'Git'),
  '.gitattributes': g('GI', 'orange', 'Git'),
  '.gitmodules': g('GI', 'orange', 'Git'),
  '.ignore': g('GI', 'gray', 'Ignore rules'),
  '.editorconfig': g('⚙', 'gray', 'Settings'),
  '.npmrc': g('⚙', 'gray', 'Settings'),
  'package-lock.json': g('LK', 'gray', 'Lockfile'),
  'pnpm-lock.yaml': g('LK', 'gray', 'Lockfile'),
  'yarn.lock': g('LK', 'gray', 'Lockfile'),
  'cargo.lock': g('LK', 'gray', 'Lockfile'),
  'go.sum': g('LK', 'gray', 'Lockfile'),
  'go.mod': g('GO', 'cyan', 'Go module'),
  'package.json': g('{}', 'green', 'npm package'),
  'tsconfig.json': g('TS', 'slate', 'TypeScript settings'),
};

/** A path's last segment's extension, lower case ('' for none; a leading dot is a name, not an extension). */
export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

export function isImagePath(path: string): boolean {
  return IMAGE_EXTENSIONS.has(extensionOf(path));
}

/** The icon for a file or folder named by `path` (only its last segment matters). */
export function fileIcon(path: string, kind: 'file' | 'directory' = 'file', open = false): FileIconSpec {
  if (kind === 'directory') return { shape: 'folder', open };
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const byName = BY_NAME[name];
  if (byName) return byName;
  if (name.startsWith('.env')) return BY_EXTENSION.env;
  if (name.startsWith('dockerfile.') || name.endsWith('.dockerfile')) return BY_NAME.dockerfile;
  const ext = extensionOf(name);
  if (IMAGE_EXTENSIONS.has(ext)) return { shape: 'image' };
  return BY_EXTENSION[ext] ?? { shape: 'file' };
}
