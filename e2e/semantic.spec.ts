/**
 * Semantic search in the browser (issue 16): the first semantic search loads the model (the
 * app's own files, same origin) in the embedding worker and embeds the folder with a progress
 * bar; results answer a question by meaning, with why; Ranked stays lexical and Hybrid fuses; and after one
 * visit the model and the vectors work with the network off.
 */
import { expect, test } from './fixtures';
import { pickerReturnsOpfs, writeOpfsRepo } from './helpers/opfs';

// offline use needs the service worker (playwright.config.ts blocks it for the other specs)
test.use({ serviceWorkers: 'allow' });

const FILES: Record<string, string> = {
  'src/auth/session.ts':
    '/** Renews the access token when the session has expired. */\nexport function refreshExpiredSession(token: Token, clock: Clock) {\n  if (clock.now() > token.expiresAt) return renewToken(token);\n  return token;\n}\n',
  'src/auth/password.ts':
    '// compares the password with the stored hash\nexport function verifyPassword(user: User, password: string) {\n  return compareHash(password, user.hash);\n}\n',
  'src/csv/parse.ts':
    '/** Splits comma separated text into rows of fields. */\nexport function parseCsv(text: string) {\n  return text.split("\\n").map((l) => l.split(","));\n}\n',
  'src/ui/Button.tsx':
    'export function Button({ label }: { label: string }) {\n  return <button>{label}</button>;\n}\n',
  'src/mail/send.ts':
    '/** Sends the welcome email to a new user. */\nexport async function sendWelcomeEmail(user: User, mailer: Mailer) {\n  await mailer.send(user.email, "Welcome");\n}\n',
  'README.md': '# Shop\n\n## Payments\n\nCards are charged at checkout.\n',
};

test('semantic search: enabled by the first question, answers by meaning with why, and works offline after one visit', async ({
  quarry,
  page,
  context,
}) => {
  test.setTimeout(240_000);
  const hosts = new Set<string>();
  page.on('request', (r) => hosts.add(new URL(r.url()).host));
  await pickerReturnsOpfs(page, 'shop');
  await quarry.gotoEmpty();
  await writeOpfsRepo(page, 'shop', FILES);
  // the model's fetches go through the service worker (so it keeps them) once it controls the page
  await page.evaluate(async () => void (await navigator.serviceWorker.ready));
  await page.reload();
  await expect(page.getByTestId('home')).toBeVisible();
  await quarry.openFolderButton.click();
  await quarry.waitForRepo('shop');
  await quarry.waitForIndex();

  await quarry.mode('Semantic').check();
  await expect(page.getByTestId('semantic-enable')).toContainText('embeds this repository’s 7 chunks');
  await quarry.searchBox.fill('renew a login that timed out');
  // the question starts it: the model's download, then the chunks, with a progress bar
  await expect(page.getByTestId('semantic-progress').getByRole('progressbar')).toBeVisible();
  await expect(quarry.semanticHits.first()).toHaveAttribute('data-path', 'src/auth/session.ts', {
    timeout: 120_000,
  });
  await quarry.semanticHits.first().getByRole('button', { name: /^Why/ }).click();
  await expect(page.getByTestId('semantic-why').first()).toContainText(/Similarity 0\.\d{3} to the question/);

  await quarry.searchBox.fill('send an email to someone who just signed up');
  await expect(quarry.semanticHits.first()).toHaveAttribute('data-path', 'src/mail/send.ts');

  // Ranked stays lexical with the model loaded (hybrid scored below it on the labelled set)
  await quarry.search('parseCsv', 'Ranked');
  await expect(quarry.rankedHits.first()).toHaveAttribute('data-path', 'src/csv/parse.ts');
  await expect(quarry.semanticHits).toHaveCount(0);
  // Hybrid is its own mode: an exact identifier comes first, and says so
  await quarry.search('parseCsv', 'Hybrid');
  await expect(quarry.semanticHits.first()).toHaveAttribute('data-path', 'src/csv/parse.ts');
  await quarry.semanticHits.first().getByRole('button', { name: /^Why/ }).click();
  await expect(page.getByTestId('semantic-why').first()).toContainText('Exact identifier');
  await page.screenshot({ path: 'e2e/output/semantic.png' });

  // the model came from the app itself and the service worker keeps it
  expect([...hosts].every((h) => h.startsWith('127.0.0.1') || h.startsWith('localhost'))).toBe(true);
  const cached: string[] = await page.evaluate(async () =>
    (await (await caches.open('quarry-model')).keys()).map((r) => new URL(r.url).pathname.split('/').pop()!),
  );
  expect(cached.filter((n) => n.startsWith('group1-shard'))).toHaveLength(7);
  expect(cached.some((n) => n.startsWith('vocab-'))).toBe(true);

  // offline: the model from the cache, the vectors from IndexedDB (nothing to embed again)
  await context.setOffline(true);
  await page.reload();
  await quarry.waitForRepo('shop');
  await quarry.waitForIndex();
  await quarry.search('check the password of a user', 'Semantic');
  await expect(quarry.semanticHits.first()).toHaveAttribute('data-path', 'src/auth/password.ts', {
    timeout: 60_000,
  });
  await context.setOffline(false);
});
