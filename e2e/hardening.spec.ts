/**
 * Issue 34 (hardening), the app's rows: a link to a file that is not there (or climbs out of the
 * repository) leaves the Files tree alone; a clone link that is not http(s) is not offered; a file
 * named with a backslash is listed, readable, searchable and drawn as a file by Explore.
 */
import { expect, test } from './fixtures';
import { writeDiskRepo } from './helpers/repos';

for (const file of ['gone/old.ts', '../../etc/passwd']) {
  test(`a link to ${file} says "No such file" in the viewer and keeps the tree`, async ({ quarry, page }) => {
    await quarry.goto(`?repo=demo&file=${encodeURIComponent(file)}`);
    await quarry.waitForRepo('quarry (demo)');
    const viewerAlert = quarry.viewer(file).getByRole('alert');
    await expect(viewerAlert).toContainText('Cannot show this file');
    await expect(viewerAlert).toContainText('No such file');
    await expect(quarry.treeItem('src')).toBeVisible();
    await expect(page.getByText('Could not list files')).toHaveCount(0);
    // the tree still works: a folder opens, a file opens
    await quarry.treeItem('src').click();
    await expect(quarry.tree.getByRole('treeitem').nth(1)).toBeVisible();
    await expect(page.getByText('Could not list files')).toHaveCount(0);
  });
}

for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,<b>x</b>']) {
  test(`a shared link with clone=${url.slice(0, 11)}… is refused before any offer`, async ({
    quarry,
    page,
  }) => {
    await quarry.goto(`?repo=${encodeURIComponent('git:evil-example')}&clone=${encodeURIComponent(url)}`);
    const notice = page.getByRole('alert').filter({ hasText: 'not an http(s) URL' });
    await expect(notice).toBeVisible();
    await expect(page.getByTestId('clone-offer')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Clone this repository' })).toHaveCount(0);
  });
}

test('a file named back\\slash.ts is listed, readable, searchable, and drawn as a file by Explore', async ({
  quarry,
  page,
}) => {
  const name = 'back\\slash.ts';
  const dir = writeDiskRepo('slashes', {
    [name]: "import { lib } from './lib';\nexport const backslashNeedle = lib();\n",
    'lib.ts': 'export function lib() {\n  return 1;\n}\n',
  });
  await quarry.gotoEmpty();
  await quarry.folderInput.setInputFiles(dir);
  await quarry.waitForRepo('slashes');

  await expect(quarry.treeItem(name)).toBeVisible();
  await quarry.treeItem(name).click();
  await expect(quarry.viewer(name).getByText('backslashNeedle')).toBeVisible();

  await quarry.search('backslashNeedle');
  await quarry.waitForSearchDone();
  await expect(quarry.summary).toContainText('1 match in 1 file');

  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Explore' }).click();
  const tree = page.getByLabel('Directory tree');
  await expect(tree).toContainText(name, { timeout: 30_000 });
  await expect(tree).not.toContainText('back/');
});
