/**
 * Pattern -> Matcher for the grep engine: literal text or RE2/Rust regex syntax (as ripgrep
 * accepts), line-oriented, with every search provably bounded. See matcher.ts and analyze.ts.
 */
export { compileMatcher, isValidRegex } from './matcher';
export type { CaseMode, Matcher, MatcherOptions } from './matcher';
