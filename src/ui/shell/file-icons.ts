/**
 * Which icon a file or folder gets in the tree and the result lists: a small coloured badge
 * with a one- or two-character glyph for a language or format, or a drawn shape (folder,
 * image, plain file). Plain TS (tested in Node); FileIcon.tsx draws it. Names are matched
 * case-insensitively: exact names first (Dockerfile, LICENSE, lockfiles), then the extension.
 */
import { languageOfExtension, type Language } from '../../core/source/languages';

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

const TS = g('TS', 'blue', 'TypeScript');
const JS = g('JS', 'yellow', 'JavaScript');
const SHELL = g('$', 'green', 'Shell');
const SETTINGS = g('⚙', 'gray', 'Settings');
const LOCKFILE = g('LK', 'gray', 'Lockfile');
const DOCKERFILE = g('DK', 'blue', 'Dockerfile');
const MAKEFILE = g('MK', 'gray', 'Makefile');

/** The icon of each language of core's extension table (source/languages.ts) that has one. */
const BY_LANGUAGE: Partial<Record<Language, FileIconSpec>> = {
  typescript: TS,
  tsx: g('TX', 'cyan', 'TypeScript React'),
  javascript: JS,
  jsx: g('JX', 'cyan', 'JavaScript React'),
  json: g('{}', 'amber', 'JSON'),
  markdown: g('M', 'slate', 'Markdown'),
  mdx: g('M', 'slate', 'Markdown'),
  css: g('#', 'purple', 'CSS'),
  scss: g('#', 'purple', 'Sass'),
  sass: g('#', 'purple', 'Sass'),
  less: g('#', 'purple', 'Less'),
  html: g('<>', 'orange', 'HTML'),
  xml: g('<>', 'orange', 'XML'),
  vue: g('V', 'green', 'Vue'),
  svelte: g('S', 'orange', 'Svelte'),
  python: g('PY', 'blue', 'Python'),
  go: g('GO', 'cyan', 'Go'),
  rust: g('RS', 'orange', 'Rust'),
  c: g('C', 'blue', 'C'),
  'c-header': g('H', 'purple', 'C header'),
  cpp: g('C+', 'blue', 'C++'),
  'cpp-header': g('H+', 'purple', 'C++ header'),
  java: g('J', 'red', 'Java'),
  kotlin: g('K', 'purple', 'Kotlin'),
  csharp: g('C#', 'green', 'C#'),
  ruby: g('RB', 'red', 'Ruby'),
  php: g('PH', 'purple', 'PHP'),
  swift: g('SW', 'orange', 'Swift'),
  shell: SHELL,
  zsh: SHELL,
  fish: SHELL,
  powershell: g('$', 'blue', 'PowerShell'),
  sql: g('SQ', 'amber', 'SQL'),
  yaml: g('Y', 'red', 'YAML'),
  toml: g('T', 'gray', 'TOML'),
  ini: SETTINGS,
  dotenv: SETTINGS,
  lockfile: LOCKFILE,
  wasm: g('WA', 'purple', 'WebAssembly'),
  graphql: g('GQ', 'purple', 'GraphQL'),
  protobuf: g('PB', 'cyan', 'Protocol Buffers'),
  dart: g('D', 'cyan', 'Dart'),
  lua: g('LU', 'blue', 'Lua'),
  r: g('R', 'blue', 'R'),
  scala: g('SC', 'red', 'Scala'),
  elixir: g('EX', 'purple', 'Elixir'),
  erlang: g('ER', 'red', 'Erlang'),
  haskell: g('HS', 'purple', 'Haskell'),
  zig: g('Z', 'amber', 'Zig'),
  csv: g('≡', 'green', 'CSV'),
  tsv: g('≡', 'green', 'TSV'),
  makefile: MAKEFILE,
  dockerfile: DOCKERFILE,
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
  dockerfile: DOCKERFILE,
  containerfile: DOCKERFILE,
  makefile: MAKEFILE,
  gnumakefile: MAKEFILE,
  license: g('©', 'amber', 'Licence'),
  'license.md': g('©', 'amber', 'Licence'),
  'license.txt': g('©', 'amber', 'Licence'),
  licence: g('©', 'amber', 'Licence'),
  copying: g('©', 'amber', 'Licence'),
  '.gitignore': g('GI', 'orange', 'Git'),
  '.gitattributes': g('GI', 'orange', 'Git'),
  '.gitmodules': g('GI', 'orange', 'Git'),
  '.ignore': g('GI', 'gray', 'Ignore rules'),
  '.editorconfig': SETTINGS,
  '.npmrc': SETTINGS,
  'package-lock.json': LOCKFILE,
  'pnpm-lock.yaml': LOCKFILE,
  'yarn.lock': LOCKFILE,
  'cargo.lock': LOCKFILE,
  'go.sum': LOCKFILE,
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
  if (name.startsWith('.env')) return SETTINGS;
  if (name.startsWith('dockerfile.') || name.endsWith('.dockerfile')) return BY_NAME.dockerfile;
  const ext = extensionOf(name);
  if (IMAGE_EXTENSIONS.has(ext)) return { shape: 'image' };
  const language = languageOfExtension(ext);
  return (language && BY_LANGUAGE[language]) || { shape: 'file' };
}
