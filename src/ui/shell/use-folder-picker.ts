/**
 * Opening a folder: the browser's directory picker (a live folder) where there is one, else the
 * directory input (a snapshot of its files); either opens in place of the workspace or joins it.
 */
import { useCallback, useEffect, useRef } from 'react';
import { toQuarryError } from '../../core/errors';
import { filesFromInput } from '../../adapters/browser/files';
import { hasDirectoryPicker, pickDirectory } from '../../adapters/browser/fs-access';
import type { OpenOptions, WorkspaceController } from '../workspace/controller';

/**
 * `fileInput` is the directory input (in the top bar); `pickFolder` asks for a folder,
 * `onFilesChosen` takes what the input delivered.
 */
export function useFolderPicker(controller: WorkspaceController) {
  const fileInput = useRef<HTMLInputElement>(null);
  /** Whether the folder chosen next in the directory input joins the workspace (Add folder) or replaces it. */
  const addChosenFiles = useRef(false);

  const pickFolder = useCallback(
    async (options: OpenOptions = {}) => {
      if (!hasDirectoryPicker()) {
        // no File System Access: the directory input (a snapshot), added or not as asked
        addChosenFiles.current = !!options.add;
        fileInput.current?.click();
        return;
      }
      try {
        const handle = await pickDirectory();
        if (handle) await controller.openHandle(handle, options);
      } catch (err) {
        controller.setNotice({
          kind: 'error',
          title: 'Could not open the folder',
          message: toQuarryError(err).message,
        });
      }
    },
    [controller],
  );

  // A closed file dialog (no folder chosen) forgets the Add intent.
  useEffect(() => {
    const input = fileInput.current;
    if (!input) return;
    const forget = () => {
      addChosenFiles.current = false;
    };
    input.addEventListener('cancel', forget);
    return () => input.removeEventListener('cancel', forget);
  }, []);

  const onFilesChosen = (list: FileList | null) => {
    const add = addChosenFiles.current && controller.state.roots.length > 0;
    addChosenFiles.current = false;
    if (!list || !list.length) return;
    // Leave the task that delivered the files at once; the work happens in short tasks after it.
    performance.mark('quarry:files-received');
    // The input lets go of the list at once (an empty list in its place; ours stays whole, where
    // `value = ''` would empty it in place): the browser saves a file input's every path and name
    // in the page's history state, again after every address change, which for a folder of
    // thousands of files was a main-thread task of 100-400 ms a second after each one (trace:
    // RenderFrameImpl's delayed state sync). Choosing the same folder again still fires change.
    const input = fileInput.current;
    if (input && input.files === list) input.files = new DataTransfer().files;
    // The FileList itself goes to filesFromInput: touching list[i] creates that File's JS wrapper,
    // so 10,000 wrappers appear a slice at a time (spreading the GC work) rather than all at once.
    setTimeout(() => {
      void filesFromInput(list).then((folder) => controller.openSnapshot(folder.name, folder.files, { add }));
    }, 0);
  };

  return { fileInput, pickFolder, onFilesChosen };
}
