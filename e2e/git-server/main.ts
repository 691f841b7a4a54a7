/**
 * CLI entry for Playwright's webServer: `npx tsx e2e/git-server/main.ts --port 8174 [--verbose]`.
 * Prints "git server listening on <url>" and serves until SIGINT/SIGTERM.
 */
import { startGitServer } from './server';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const port = Number(arg('port') ?? process.env.GIT_SERVER_PORT ?? 0);
const server = await startGitServer({ port, verbose: process.argv.includes('--verbose') });
console.log(`git server listening on ${server.url}`);
console.log(
  `fixtures: ${server.repoUrl('small-app')} (also private-app with token quarry-test-token, big-app)`,
);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await server.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
