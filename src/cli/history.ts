/**
 * explore's git agent in the CLI: a root's history read from the root's own `.git`, nothing
 * outside the root and nothing but regular files (src/adapters/node/root-history.ts).
 */
export {
  nodeRootHistory as cliHistory,
  nodeRootHistorySearch as cliHistorySearch,
} from '../adapters/node/root-history';
