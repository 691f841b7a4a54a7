/**
 * Completion in the search box (issue 35): at the end of a word, a filter name's prefix offers
 * the filters (QUERY_FILTERS, with their descriptions); after `key:` the values: the languages
 * present in the open repository for `lang:`, the open roots for `root:`, top-level folders for
 * `file:`, the closed sets and examples for `type:`, `case:`, `select:`, `count:`, `before:`,
 * `after:`. Plain TS, tested in Node.
 */
import { completeFilterValues, filterFieldOf, QUERY_FILTERS } from '../../core/query/filters';
import type { FilterField } from '../../core/query/types';
import { LANGUAGES, languageOfExtension, type Language } from '../../core/source/languages';
import { plural } from '../format';

export interface CompletionItem {
  /** What the list shows first. */
  label: string;
  /** What replaces the word's part being completed. */
  insert: string;
  detail?: string;
}

export interface Completion {
  /** Filters (a key's prefix) or a filter's values. */
  kind: 'filter' | 'value';
  field?: FilterField;
  /** The range of the text an item replaces. */
  from: number;
  to: number;
  items: CompletionItem[];
  /** The values are still being read (say so rather than offer nothing). */
  loading?: boolean;
}

export interface LanguageCount {
  id: Language;
  name: string;
  files: number;
}

/** The values the open repository offers (null: not read yet). */
export interface CompletionSources {
  languages: LanguageCount[] | null;
  roots: readonly string[];
  folders: readonly string[] | null;
}

/** The languages of `paths` by extension, most files first (then by id). */
export function languagesOf(paths: Iterable<string>): LanguageCount[] {
  const counts = new Map<Language, number>();
  for (const path of paths) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    const dot = name.lastIndexOf('.');
    if (dot <= 0) continue;
    const language = languageOfExtension(name.slice(dot + 1).toLowerCase());
    if (language) counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  return [...counts]
    .map(([id, files]) => ({ id, name: LANGUAGES[id].name, files }))
    .sort((a, b) => b.files - a.files || a.id.localeCompare(b.id));
}

const MAX_ITEMS = 12;

/** Items whose label starts with the prefix first, then those that contain it. */
function byPrefix(
  items: CompletionItem[],
  prefix: string,
  also?: (item: CompletionItem) => string,
): CompletionItem[] {
  const p = prefix.toLowerCase();
  const keys = (i: CompletionItem) => [i.label.toLowerCase(), (also?.(i) ?? '').toLowerCase()];
  const starts = items.filter((i) => keys(i).some((k) => k.startsWith(p)));
  const contains = items.filter((i) => !starts.includes(i) && keys(i).some((k) => k.includes(p)));
  return [...starts, ...contains].slice(0, MAX_ITEMS);
}

function valueItems(
  field: FilterField,
  sources: CompletionSources,
): { items: CompletionItem[]; loading: boolean } {
  switch (field) {
    case 'lang':
      return {
        items: (sources.languages ?? []).map((l) => ({
          label: l.id,
          insert: l.id,
          detail: `${l.name} · ${plural(l.files, 'file')}`,
        })),
        loading: sources.languages === null,
      };
    case 'root':
      return { items: sources.roots.map((r) => ({ label: r, insert: r })), loading: false };
    case 'file':
      return {
        items: (sources.folders ?? []).map((f) => ({ label: `${f}/`, insert: `${f}/`, detail: 'folder' })),
        loading: sources.folders === null,
      };
    case 'author':
      return { items: [], loading: false };
    default:
      return { items: completeFilterValues(field).map((v) => ({ label: v, insert: v })), loading: false };
  }
}

/** The filters a key prefix names (by name or alias), canonical names inserted. */
function filterItems(prefix: string, negated: boolean): CompletionItem[] {
  const p = prefix.toLowerCase();
  return QUERY_FILTERS.filter((s) => [s.field, ...s.aliases].some((n) => n.startsWith(p))).map((s) => ({
    label: `${negated ? '-' : ''}${s.field}:`,
    insert: `${negated ? '-' : ''}${s.field}:`,
    detail: s.description,
  }));
}

/** What to offer with the caret at `caret` (null: nothing). */
export function completeQuery(text: string, caret: number, sources: CompletionSources): Completion | null {
  if (caret < text.length && !/\s/.test(text[caret])) return null;
  let from = caret;
  while (from > 0 && !/\s/.test(text[from - 1])) from--;
  const word = text.slice(from, caret);
  // inside a quote or a /regex/ (an odd number of unescaped quotes before the caret): no filter
  if ((text.slice(0, from).match(/(?<!\\)"/g)?.length ?? 0) % 2 === 1) return null;
  const filter = /^(-?)([A-Za-z]+):(.*)$/s.exec(word);
  if (filter) {
    const field = filterFieldOf(filter[2]);
    const value = filter[3];
    if (!field || value.startsWith('"')) return null;
    const { items, loading } = valueItems(field, sources);
    const shown = byPrefix(items, value, (i) => i.detail ?? '');
    if (!loading && (shown.length === 0 || (shown.length === 1 && shown[0].insert === value))) return null;
    const valueFrom = caret - value.length;
    return {
      kind: 'value',
      field,
      from: valueFrom,
      to: caret,
      items: shown,
      ...(loading ? { loading } : {}),
    };
  }
  const key = /^(-?)([A-Za-z]+)$/.exec(word);
  if (!key || /^(AND|OR|NOT)$/.test(word)) return null;
  const items = filterItems(key[2], key[1] === '-');
  return items.length ? { kind: 'filter', from, to: caret, items } : null;
}

/** The text once `item` is accepted, and the caret: after a value a space, after a key its values. */
export function applyCompletion(
  text: string,
  completion: Completion,
  item: CompletionItem,
): { text: string; caret: number } {
  const head = text.slice(0, completion.from) + item.insert;
  const rest = text.slice(completion.to);
  // a folder may go deeper (file:src/ then more); a finished value is followed by a space
  const space = completion.kind === 'value' && completion.field !== 'file' && !/^\s/.test(rest) ? ' ' : '';
  const caret = head.length + (completion.kind === 'value' && completion.field !== 'file' ? 1 : 0);
  return { text: head + space + rest, caret: Math.min(caret, head.length + space.length + rest.length) };
}
