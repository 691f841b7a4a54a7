/**
 * The explore report as Markdown (the view's export, and `quarry call explore` prints JSON):
 * the same sections in the same order, every path with its line. Repository text goes in
 * code spans and fenced blocks whose fence is longer than any backtick run inside, so a file's
 * content can never turn into markup.
 */
import type { ExploreResult } from './types';

function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${text}\n${f}`;
}

function code(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${f}${pad}${text.replace(/\n/g, ' ')}${pad}${f}`;
}

/** Plain text in a Markdown line: markup characters escaped. */
function plain(text: string): string {
  return text.replace(/\n/g, ' ').replace(/([\\`*_[\]<>#|~])/g, '\\$1');
}

const where = (path: string, line?: number) => code(line ? `${path}:${line}` : path);

export function exploreMarkdown(r: ExploreResult): string {
  const out: string[] = [];
  out.push(`# Explore: ${plain(r.path)}`, '');
  out.push(
    `Depth: ${r.depth}${r.focus ? ` · Focus: ${plain(r.focus)}` : ''} · ${r.files_scanned.toLocaleString('en-US')} files`,
    '',
  );
  out.push('## Summary', '', plain(r.summary), '');
  out.push('## Tree', '', fence(r.tree), '');
  if (r.key_files.length) {
    out.push('## Key files', '');
    for (const k of r.key_files) out.push(`- ${where(k.path)}: ${plain(k.role)}`);
    out.push('');
  }
  out.push('## Dependencies', '', fence(r.dependencies), '');
  if (r.patterns.length) {
    out.push('## Patterns', '');
    for (const p of r.patterns) {
      out.push(`### ${plain(p.name)}`, '', plain(p.description), '');
      for (const e of p.examples) out.push(`- ${where(e.path, e.line)}${e.text ? ` ${code(e.text)}` : ''}`);
      out.push('');
    }
  }
  if (r.focus) {
    out.push(`## Focus: ${plain(r.focus)}`, '');
    if (!r.focus_findings_detail.length) out.push(plain(r.focus_findings), '');
    for (const h of r.focus_findings_detail)
      out.push(
        `### ${where(h.path, h.startLine)}${h.symbol ? ` ${plain(h.symbol)}` : ''}`,
        '',
        fence(h.snippet),
        '',
      );
  }
  const g = r.import_graph;
  if (g) {
    out.push('## Import graph', '');
    out.push(
      `${g.files} source files, ${g.internalEdges} imports between them, ${g.externals} external packages, ${g.unresolved.length} unresolved imports.`,
      '',
    );
    const cycles = (title: string, list: typeof g.cycles) => {
      if (!list.length) return;
      out.push(`### ${title} (${list.length})`, '');
      for (const c of list) out.push(`- ${c.path.map((p) => code(p)).join(' → ')}`);
      out.push('');
    };
    cycles('Runtime cycles', g.cycles);
    if (!g.cycles.length) out.push('No runtime cycle.', '');
    cycles('Type-only cycles (no runtime effect)', g.typeCycles);
    cycles('Cycles through dynamic import()', g.dynamicCycles);
    if (g.hubs.fanIn.length)
      out.push('### Most imported', '', ...g.hubs.fanIn.map((h) => `- ${where(h.path)} (${h.count})`), '');
    if (g.hubs.fanOut.length)
      out.push('### Importing most', '', ...g.hubs.fanOut.map((h) => `- ${where(h.path)} (${h.count})`), '');
    if (g.orphans.length)
      out.push(
        `### Orphans (${g.orphans.length})`,
        '',
        ...g.orphans.slice(0, 100).map((o) => `- ${where(o)}`),
        '',
      );
  }
  if (r.git_history !== undefined) out.push('## Git history', '', fence(r.git_history), '');
  out.push('## Analyzers', '', '| analyzer | status | ms |', '|---|---|---|');
  for (const a of r.analyzers)
    out.push(`| ${a.name} | ${a.status}${a.error ? `: ${plain(a.error)}` : ''} | ${a.ms} |`);
  out.push('');
  return out.join('\n');
}
