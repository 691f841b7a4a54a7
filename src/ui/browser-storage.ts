/** localStorage, or null where it is missing or refused (a sandboxed frame, some private modes). */
export function browserStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
