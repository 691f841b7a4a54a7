/**
 * explore's summary: one paragraph assembled from the report's own sections, each sentence
 * naming where it comes from (a manifest's path, a file, a pattern's count), so that every
 * claim can be checked against the section beside it. Nothing is inferred beyond the counts.
 */
import { languageForPath } from '../chunk/languages';
import type { CorpusFile } from './corpus';
import type { ExploreResult } from './types';

const LANGUAGE_NAMES: Record<string, string> = {
  typescript: 'TypeScript',
  tsx: 'TypeScript',
  javascript: 'JavaScript',
  jsx: 'JavaScript',
  python: 'Python',
  go: 'Go',
  rust: 'Rust',
  c: 'C',
  cpp: 'C++',
  java: 'Java',
  kotlin: 'Kotlin',
  ruby: 'Ruby',
  php: 'PHP',
  csharp: 'C#',
  c_sharp: 'C#',
  swift: 'Swift',
  scala: 'Scala',
  bash: 'Shell',
  css: 'CSS',
  html: 'HTML',
  vue: 'Vue',
  svelte: 'Svelte',
};

const name = (id: string) => LANGUAGE_NAMES[id] ?? id.charAt(0).toUpperCase() + id.slice(1);
const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** Files by language, most first (files of no programming language left out). */
export function languageCounts(
  files: readonly Pick<CorpusFile, 'rel'>[],
): Array<{ language: string; files: number }> {
  const counts = new Map<string, number>();
  for (const f of files) {
    const id = languageForPath(f.rel);
    if (!id) continue;
    const n = name(id);
    counts.set(n, (counts.get(n) ?? 0) + 1);
  }
  return [...counts]
    .map(([language, files]) => ({ language, files }))
    .sort((a, b) => b.files - a.files || (a.language < b.language ? -1 : 1));
}

/** `name`: how the explored path is named in the first sentence (the repository's name for '.'). */
export function buildSummary(r: ExploreResult, files: readonly CorpusFile[], name = r.path): string {
  const out: string[] = [];
  const folders = new Set(
    files.map((f) => (f.path.includes('/') ? f.path.slice(0, f.path.lastIndexOf('/')) : '')),
  );
  const langs = languageCounts(files);
  const langText = langs.length
    ? `, mostly ${langs
        .slice(0, 3)
        .map((l) => `${l.language} (${l.files})`)
        .join(', ')}`
    : '';
  out.push(`${name} holds ${plural(files.length, 'file')} in ${plural(folders.size, 'folder')}${langText}.`);

  const named = r.dependencies_detail.filter((m) => m.kind !== 'tsconfig');
  if (named.length) {
    const m = named[0];
    const runtime = m.dependencies.filter((d) => d.scope === 'runtime').length;
    const other = m.dependencies.length - runtime;
    const what = m.name
      ? `${m.kind} package ${m.name}${m.version ? ` ${m.version}` : ''}`
      : `${m.kind} project`;
    const scripts = Object.keys(m.scripts);
    out.push(
      `${m.path} describes it as the ${what} with ${plural(runtime, 'runtime dependency', 'runtime dependencies')}` +
        (other ? ` and ${other} ${other === 1 ? 'other' : 'others'} (dev, build, test or peer)` : '') +
        (scripts.length
          ? `; scripts: ${scripts.slice(0, 6).join(', ')}${scripts.length > 6 ? ', …' : ''}`
          : '') +
        '.',
    );
    if (named.length > 1)
      out.push(
        `${plural(named.length - 1, 'more manifest')} (${named
          .slice(1, 4)
          .map((x) => x.path)
          .join(', ')}${named.length > 4 ? ', …' : ''}).`,
      );
  } else if (
    r.dependencies_detail.length === 0 &&
    r.analyzers.some((a) => a.name === 'manifests' && a.status === 'ok')
  ) {
    out.push('No dependency manifest was found.');
  }

  const entries = r.key_files.filter((k) => /entry point/i.test(k.role)).slice(0, 4);
  if (entries.length)
    out.push(`Entry ${entries.length === 1 ? 'point' : 'points'}: ${entries.map((k) => k.path).join(', ')}.`);
  const readme = r.key_files.find((k) => /readme/i.test(k.role));
  if (readme) out.push(`Start with ${readme.path}.`);

  const counted = r.patterns.filter((p) => p.total && p.count !== undefined).slice(0, 3);
  if (counted.length) out.push(`Conventions: ${counted.map((p) => p.description).join('; ')}.`);

  if (r.focus && r.focus_findings_detail.length) {
    const top = r.focus_findings_detail[0];
    out.push(
      `For "${r.focus}" the best match is ${top.symbol ? `${top.symbol} in ` : ''}${top.path}:${top.startLine}.`,
    );
  } else if (r.focus && r.analyzers.some((a) => a.name === 'focus' && a.status === 'ok')) {
    out.push(`Nothing matched "${r.focus}".`);
  }

  const g = r.import_graph;
  if (g) {
    const hub = g.hubs.fanIn[0];
    out.push(
      `The import graph has ${plural(g.internalEdges, 'import')} between ${plural(g.files, 'source file')} and ${plural(g.externals, 'external package')}` +
        (g.cycles.length
          ? `, with ${plural(g.cycles.length, 'runtime cycle')} (${g.cycles[0].path.join(' → ')})`
          : ', with no runtime cycle') +
        (g.typeCycles.length ? ` and ${plural(g.typeCycles.length, 'type-only cycle')}` : '') +
        (hub ? `; the most imported file is ${hub.path} (${hub.count})` : '') +
        '.',
    );
  }
  const h = r.git_history_detail;
  if (h?.available && h.commits?.length) {
    const last = h.commits[0];
    out.push(
      `On branch ${h.branch ?? '(detached)'}, the last commit here is ${last.oid.slice(0, 7)} by ${last.author} on ${last.date.slice(0, 10)} ("${last.message}").`,
    );
  }
  if (r.errors.length)
    out.push(`Not analysed: ${r.errors.map((e) => `${e.analyzer} (${e.message})`).join('; ')}.`);
  return out.join(' ');
}
