/**
 * Clone settings: the CORS proxy URL is a remembered setting (localStorage); access tokens
 * are kept in memory for this tab only, unless the user ticks "remember", which stores that
 * host's token in localStorage. Tokens are per host and never go into a URL.
 */
const PROXY_KEY = 'quarry.corsProxy';
const TOKENS_KEY = 'quarry.tokens';

const memoryTokens = new Map<string, string>();

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // disabled storage (privacy settings): settings last for this tab
  }
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

export function loadProxy(): string {
  return storage()?.getItem(PROXY_KEY) ?? '';
}

export function saveProxy(value: string): void {
  const v = value.trim();
  if (v) storage()?.setItem(PROXY_KEY, v);
  else storage()?.removeItem(PROXY_KEY);
}

function rememberedTokens(): Record<string, string> {
  try {
    return JSON.parse(storage()?.getItem(TOKENS_KEY) ?? '{}') as Record<string, string>;
  } catch {
    return {};
  }
}

/** The token for a repository URL's host: this tab's, else a remembered one. */
export function tokenFor(url: string): { token: string; remembered: boolean } {
  const host = hostOf(url);
  if (!host) return { token: '', remembered: false };
  const remembered = rememberedTokens()[host];
  return { token: memoryTokens.get(host) ?? remembered ?? '', remembered: remembered !== undefined };
}

/** Keep `token` for the URL's host: in memory, and in localStorage only when `remember` is set. */
export function keepToken(url: string, token: string, remember: boolean): void {
  const host = hostOf(url);
  if (!host) return;
  const t = token.trim();
  if (t) memoryTokens.set(host, t);
  else memoryTokens.delete(host);
  const all = rememberedTokens();
  if (remember && t) all[host] = t;
  else delete all[host];
  if (Object.keys(all).length) storage()?.setItem(TOKENS_KEY, JSON.stringify(all));
  else storage()?.removeItem(TOKENS_KEY);
}
