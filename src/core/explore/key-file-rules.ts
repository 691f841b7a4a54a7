/**
 * The file-name conventions explore's key files are found by (seed 003, the tree agent): docs,
 * configs, CI definitions and conventional entry points of each ecosystem, as data, so that
 * key-files.ts holds only the logic. A rule matches a file's base name (or, for CI, its path).
 */

/** Categories in report order: a README first, then manifests, entry points, configs, CI, tests, the rest. */
export const Category = { Readme: 0, Manifest: 1, Entry: 2, Config: 3, CI: 4, Tests: 5, Other: 6 } as const;
export type Category = (typeof Category)[keyof typeof Category];

export interface NameRule {
  test: RegExp;
  role: string;
  category: Category;
}

const JS = '[cm]?[jt]s';

/** Project documents, found at a project root, in .github/ or in docs/. */
export const DOC_RULES: NameRule[] = [
  { test: /^readme(\.(md|markdown|mdx|rst|txt|adoc|org))?$/i, role: 'README', category: Category.Readme },
  { test: /^(licen[cs]e|copying|unlicense)([.-][\w.-]+)?$/i, role: 'license', category: Category.Other },
  { test: /^contributing(\.\w+)?$/i, role: 'contribution guide', category: Category.Other },
  { test: /^(changelog|changes|history|releases)(\.\w+)?$/i, role: 'changelog', category: Category.Other },
  { test: /^security(\.\w+)?$/i, role: 'security policy', category: Category.Other },
  { test: /^codeowners$/i, role: 'code owners', category: Category.Other },
  { test: /^code_of_conduct(\.\w+)?$/i, role: 'code of conduct', category: Category.Other },
  {
    test: /^(agents|claude)\.md$|^\.cursorrules$|^copilot-instructions\.md$/i,
    role: 'instructions for coding agents',
    category: Category.Other,
  },
];

/** Build, tool and test configuration, anywhere outside test data. */
export const CONFIG_RULES: NameRule[] = [
  {
    test: new RegExp(`^vitest\\.(config|workspace)\\.${JS}$`),
    role: 'test config (Vitest)',
    category: Category.Tests,
  },
  {
    test: new RegExp(`^jest\\.config\\.(${JS}|json)$`),
    role: 'test config (Jest)',
    category: Category.Tests,
  },
  {
    test: new RegExp(`^playwright(-ct)?\\.config\\.${JS}$`),
    role: 'test config (Playwright)',
    category: Category.Tests,
  },
  { test: new RegExp(`^cypress\\.config\\.${JS}$`), role: 'test config (Cypress)', category: Category.Tests },
  { test: /^karma\.conf\.[cm]?[jt]s$/, role: 'test config (Karma)', category: Category.Tests },
  { test: /^\.mocharc(\.\w+)?$/, role: 'test config (Mocha)', category: Category.Tests },
  { test: /^(pytest\.ini|conftest\.py)$/, role: 'test config (pytest)', category: Category.Tests },
  { test: /^tox\.ini$/, role: 'test config (tox)', category: Category.Tests },
  { test: /^noxfile\.py$/, role: 'test config (nox)', category: Category.Tests },
  { test: /^phpunit\.xml(\.dist)?$/, role: 'test config (PHPUnit)', category: Category.Tests },
  { test: /^\.rspec$/, role: 'test config (RSpec)', category: Category.Tests },
  { test: new RegExp(`^vite\\.config\\.${JS}$`), role: 'Vite config', category: Category.Config },
  {
    test: new RegExp(`^webpack(\\.[\\w-]+)?\\.config\\.${JS}$|^webpack\\.config(\\.[\\w-]+)?\\.${JS}$`),
    role: 'webpack config',
    category: Category.Config,
  },
  { test: new RegExp(`^rollup\\.config\\.${JS}$`), role: 'Rollup config', category: Category.Config },
  { test: new RegExp(`^esbuild(\\.config)?\\.${JS}$`), role: 'esbuild config', category: Category.Config },
  { test: new RegExp(`^tsup\\.config\\.${JS}$`), role: 'tsup config', category: Category.Config },
  { test: new RegExp(`^next\\.config\\.${JS}$`), role: 'Next.js config', category: Category.Config },
  { test: new RegExp(`^nuxt\\.config\\.${JS}$`), role: 'Nuxt config', category: Category.Config },
  { test: new RegExp(`^svelte\\.config\\.${JS}$`), role: 'Svelte config', category: Category.Config },
  { test: new RegExp(`^astro\\.config\\.${JS}$`), role: 'Astro config', category: Category.Config },
  { test: new RegExp(`^remix\\.config\\.${JS}$`), role: 'Remix config', category: Category.Config },
  { test: /^angular\.json$/, role: 'Angular workspace config', category: Category.Config },
  { test: new RegExp(`^tailwind\\.config\\.${JS}$`), role: 'Tailwind config', category: Category.Config },
  {
    test: new RegExp(`^postcss\\.config\\.${JS}$|^\\.postcssrc(\\.\\w+)?$`),
    role: 'PostCSS config',
    category: Category.Config,
  },
  {
    test: new RegExp(`^\\.eslintrc(\\.\\w+)?$|^eslint\\.config\\.${JS}$`),
    role: 'ESLint config',
    category: Category.Config,
  },
  {
    test: new RegExp(`^\\.prettierrc(\\.\\w+)?$|^prettier\\.config\\.${JS}$`),
    role: 'Prettier config',
    category: Category.Config,
  },
  { test: /^biome\.jsonc?$/, role: 'Biome config', category: Category.Config },
  {
    test: new RegExp(`^\\.babelrc(\\.\\w+)?$|^babel\\.config\\.(${JS}|json)$`),
    role: 'Babel config',
    category: Category.Config,
  },
  { test: /^\.swcrc$/, role: 'SWC config', category: Category.Config },
  {
    test: /^(turbo\.json|nx\.json|lerna\.json|pnpm-workspace\.yaml|rush\.json)$/,
    role: 'monorepo config',
    category: Category.Config,
  },
  {
    test: /^(Dockerfile|Containerfile)([.-][\w.-]+)?$|\.dockerfile$/i,
    role: 'Dockerfile',
    category: Category.Config,
  },
  {
    test: /^(docker-)?compose([.-][\w.-]+)?\.ya?ml$/,
    role: 'Docker Compose file',
    category: Category.Config,
  },
  { test: /^(GNUmakefile|[Mm]akefile)$/, role: 'Makefile', category: Category.Config },
  { test: /^CMakeLists\.txt$/, role: 'CMake build', category: Category.Config },
  { test: /^meson\.build$/, role: 'Meson build', category: Category.Config },
  {
    test: /^(BUILD|BUILD\.bazel|WORKSPACE|WORKSPACE\.bazel|MODULE\.bazel)$/,
    role: 'Bazel build',
    category: Category.Config,
  },
  { test: /^(justfile|Justfile|Taskfile\.ya?ml)$/, role: 'task runner', category: Category.Config },
  { test: /^Rakefile$/, role: 'Rake tasks', category: Category.Config },
  { test: /^\.editorconfig$/, role: 'EditorConfig', category: Category.Config },
  { test: /^setup\.py$/, role: 'Python setup script', category: Category.Config },
  {
    test: /^(mypy\.ini|\.flake8|\.?ruff\.toml|\.pylintrc|pylintrc)$/,
    role: 'Python lint config',
    category: Category.Config,
  },
  { test: /^\.pre-commit-config\.ya?ml$/, role: 'pre-commit hooks', category: Category.Config },
  {
    test: /^(\.?rustfmt\.toml|clippy\.toml|rust-toolchain(\.toml)?)$/,
    role: 'Rust toolchain config',
    category: Category.Config,
  },
  { test: /^(\.golangci\.ya?ml|\.goreleaser\.ya?ml)$/, role: 'Go tooling config', category: Category.Config },
  {
    test: /^(settings\.gradle(\.kts)?|gradle\.properties)$/,
    role: 'Gradle settings',
    category: Category.Config,
  },
  { test: /^\.rubocop\.ya?ml$/, role: 'RuboCop config', category: Category.Config },
  {
    test: /^(\.nvmrc|\.node-version|\.tool-versions|\.python-version)$/,
    role: 'runtime version pin',
    category: Category.Config,
  },
  {
    test: /^(vercel\.json|netlify\.toml|fly\.toml|Procfile|serverless\.ya?ml)$/,
    role: 'deployment config',
    category: Category.Config,
  },
  {
    test: /^\.env\.(example|sample|template)$/,
    role: 'environment variables template',
    category: Category.Config,
  },
  { test: /^(renovate\.json5?|\.renovaterc(\.json)?)$/, role: 'Renovate config', category: Category.Config },
];

/** CI definitions, by path. */
export const CI_RULES: NameRule[] = [
  {
    test: /(^|\/)\.github\/workflows\/[^/]+\.ya?ml$/,
    role: 'CI workflow (GitHub Actions)',
    category: Category.CI,
  },
  {
    test: /(^|\/)\.github\/dependabot\.ya?ml$/,
    role: 'dependency updates (Dependabot)',
    category: Category.CI,
  },
  { test: /(^|\/)\.gitlab-ci\.ya?ml$/, role: 'CI pipeline (GitLab CI)', category: Category.CI },
  { test: /(^|\/)\.circleci\/config\.ya?ml$/, role: 'CI config (CircleCI)', category: Category.CI },
  {
    test: /(^|\/)azure-pipelines(\.[\w-]+)?\.ya?ml$/,
    role: 'CI pipeline (Azure Pipelines)',
    category: Category.CI,
  },
  { test: /(^|\/)Jenkinsfile$/, role: 'CI pipeline (Jenkins)', category: Category.CI },
  { test: /(^|\/)\.travis\.ya?ml$/, role: 'CI config (Travis CI)', category: Category.CI },
  {
    test: /(^|\/)bitbucket-pipelines\.ya?ml$/,
    role: 'CI pipeline (Bitbucket Pipelines)',
    category: Category.CI,
  },
  { test: /(^|\/)\.drone\.ya?ml$/, role: 'CI pipeline (Drone)', category: Category.CI },
  { test: /(^|\/)appveyor\.ya?ml$/, role: 'CI config (AppVeyor)', category: Category.CI },
  { test: /(^|\/)\.buildkite\/pipeline\.ya?ml$/, role: 'CI pipeline (Buildkite)', category: Category.CI },
  { test: /(^|\/)cloudbuild\.ya?ml$/, role: 'CI build (Google Cloud Build)', category: Category.CI },
];

/** Where a conventional entry point may sit, relative to a project root. */
export type EntryPlace = 'root' | 'root-or-src' | 'anywhere';

export interface EntryRule {
  /** Matched against the path relative to a project root. */
  test: RegExp;
  role: (match: RegExpExecArray) => string;
  place: EntryPlace;
  /** The file's text must match this (a `main` function); a file without text does not qualify. */
  needs?: RegExp;
}

/** Conventional entry points of each ecosystem. */
export const ENTRY_RULES: EntryRule[] = [
  {
    test: /^(?:src\/)?(main|index)\.[cm]?[jt]sx?$/,
    role: (m) => `entry point (${m[1]} file)`,
    place: 'root-or-src',
  },
  { test: /^mod\.ts$/, role: () => 'entry point (Deno mod.ts)', place: 'root' },
  { test: /^(?:src\/)?App\.[jt]sx$/, role: () => 'root component (App)', place: 'root-or-src' },
  {
    test: /^main\.go$/,
    role: () => 'entry point (Go main package)',
    place: 'root',
    needs: /^package main\b/m,
  },
  {
    test: /(?:^|\/)cmd\/([^/]+)\/main\.go$/,
    role: (m) => `command ${m[1]} (Go cmd/${m[1]})`,
    place: 'anywhere',
  },
  { test: /^src\/main\.rs$/, role: () => 'entry point (Rust binary crate root)', place: 'root' },
  { test: /^src\/lib\.rs$/, role: () => 'library root (Rust crate)', place: 'root' },
  { test: /^src\/bin\/([^/]+)\.rs$/, role: (m) => `binary ${m[1]} (Rust src/bin)`, place: 'root' },
  { test: /(?:^|\/)__main__\.py$/, role: () => 'entry point (python -m)', place: 'anywhere' },
  { test: /(?:^|\/)manage\.py$/, role: () => 'Django management script', place: 'anywhere' },
  {
    test: /(?:^|\/)(wsgi|asgi)\.py$/,
    role: (m) => `application entry point (${m[1].toUpperCase()})`,
    place: 'anywhere',
  },
  { test: /^(?:src\/)?(app|main)\.py$/, role: (m) => `entry point (${m[1]}.py)`, place: 'root-or-src' },
  {
    test: /^(?:src\/)?main\.(c|cc|cpp|cxx)$/,
    role: (m) => `entry point (${m[1] === 'c' ? 'C' : 'C++'} main)`,
    place: 'root-or-src',
  },
  { test: /(?:^|\/)Program\.cs$/, role: () => 'entry point (C# Program)', place: 'anywhere' },
  {
    test: /(?:^|\/)(\w*Application|Main)\.java$/,
    role: () => 'entry point (Java main class)',
    place: 'anywhere',
    needs: /\bstatic\s+void\s+main\s*\(/,
  },
  {
    test: /(?:^|\/)(\w*Application|Main)\.kt$/,
    role: () => 'entry point (Kotlin main)',
    place: 'anywhere',
    needs: /\bfun\s+main\s*\(/,
  },
];

/** Build output folders a manifest's entry point may point into, whose source is under src/. */
export const BUILD_FOLDERS = new Set([
  'dist',
  'build',
  'lib',
  'out',
  'esm',
  'cjs',
  'es',
  'umd',
  'types',
  'dts',
  'target',
  'bundle',
]);
