/**
 * Beside "Enable semantic search": which model semantic search uses, "Use my own model…" (a
 * folder with an ONNX model in the transformers.js layout: the directory picker, or an <input
 * webkitdirectory> where there is none) and, once one is picked, "Use the built-in model". A
 * picked model is copied into this browser's private storage (adapters/browser/opfs-model.ts) and
 * used from then on, after a reload too; switching re-embeds the repository with the new model
 * (each model's vectors are its own). Names from the folder are shown as text only.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { toQuarryError, type QuarryError } from '../core/errors';
import { hasDirectoryPicker, pickDirectory } from '../adapters/browser/fs-access';
import {
  folderFromFileList,
  folderFromHandle,
  removeUserModel,
  saveUserModel,
  userModelInfo,
  type PickedFolder,
  type UserModelInfo,
} from '../adapters/browser/opfs-model';
import {
  embedDevicePreference,
  setEmbedDevicePreference,
  type EmbedDevice,
} from '../adapters/browser/embed-device';
import type { SemanticState } from './use-semantic';
import { VisibleText } from './VisibleText';
import { formatBytes } from './format';

const MB = (n: number) => (n / 1e6).toFixed(1);

/** A model id as a short label: USE lite, or an ONNX model's name and the start of its hash. */
export function modelLabel(id: string): string {
  if (id === 'use-lite-512') return 'USE lite';
  const m = /^onnx:(.+):([0-9a-f]+)$/.exec(id);
  return m ? `${m[1]} (ONNX ${m[2].slice(0, 8)})` : id;
}

/** What the model in use is called, before and after it is loaded. */
function currentModel(semantic: SemanticState, user: UserModelInfo | null): string {
  if (user) return `your model “${user.name}” (${formatBytes(user.bytes)}, kept in this browser)`;
  const builtIn = semantic.status?.builtIn;
  return builtIn
    ? `this site’s model “${builtIn.name}” (${formatBytes(builtIn.bytes)})`
    : 'the built-in model (USE lite, 28 MB)';
}

export function EmbedModelPicker({ semantic }: { semantic: SemanticState }) {
  const input = useRef<HTMLInputElement>(null);
  const [user, setUser] = useState<UserModelInfo | null>(null);
  const [copying, setCopying] = useState<{ loaded: number; total: number } | null>(null);
  const [error, setError] = useState<QuarryError | null>(null);
  const { switchModel } = semantic;

  useEffect(() => {
    let live = true;
    void userModelInfo().then((info) => live && setUser(info));
    return () => {
      live = false;
    };
  }, []);

  const adopt = useCallback(
    async (folder: Promise<PickedFolder | null>) => {
      setError(null);
      try {
        const picked = await folder;
        if (!picked) return;
        setCopying({ loaded: 0, total: 0 });
        const info = await saveUserModel(picked, (loaded, total) => setCopying({ loaded, total }));
        setUser(info);
        setCopying(null);
        await switchModel();
      } catch (err) {
        setCopying(null);
        setError(toQuarryError(err));
        setUser(await userModelInfo());
      }
    },
    [switchModel],
  );

  const pick = () => {
    if (!hasDirectoryPicker()) return input.current?.click();
    void adopt(pickDirectory().then((handle) => (handle ? folderFromHandle(handle) : null)));
  };

  const builtIn = async () => {
    setError(null);
    await removeUserModel();
    setUser(null);
    await switchModel();
  };

  return (
    <div className="embed-model" data-testid="embed-model">
      <p>
        Model: <VisibleText text={currentModel(semantic, user)} />
      </p>
      <div className="embed-model-actions">
        <button
          type="button"
          onClick={pick}
          disabled={!!copying}
          data-testid="embed-model-pick"
          title="A folder with an ONNX embedding model in the transformers.js layout (config.json, tokenizer.json, onnx/model.onnx)"
        >
          Use my own model…
        </button>
        {user && (
          <button
            type="button"
            onClick={() => void builtIn()}
            disabled={!!copying}
            data-testid="embed-model-builtin"
          >
            Use the built-in model
          </button>
        )}
        {(user || semantic.status?.builtIn) && (
          <DeviceChoice switchModel={switchModel} disabled={!!copying} onError={setError} />
        )}
        <input
          ref={input}
          type="file"
          className="visually-hidden"
          data-testid="embed-model-input"
          aria-label="Choose a model folder"
          webkitdirectory=""
          multiple
          autoComplete="off"
          tabIndex={-1}
          aria-hidden
          onChange={(e) => {
            const files = e.target.files;
            if (files?.length) void adopt(Promise.resolve(folderFromFileList(files)));
            e.target.value = '';
          }}
        />
      </div>
      {copying && (
        <p className="embed-model-progress" data-testid="embed-model-progress" aria-live="polite">
          Copying the model into this browser’s storage
          {copying.total ? ` · ${MB(copying.loaded)} of ${MB(copying.total)} MB` : '…'}
        </p>
      )}
      {error && (
        <p className="inline-error" role="alert" data-testid="embed-model-error">
          <VisibleText text={error.message} />
        </p>
      )}
    </div>
  );
}

/** Where an ONNX model runs (adapters/browser/embed-device.ts): kept in this browser, applied by loading the model again. */
function DeviceChoice({
  switchModel,
  disabled,
  onError,
}: {
  switchModel: () => Promise<void>;
  disabled: boolean;
  onError: (err: QuarryError | null) => void;
}) {
  const [device, setDevice] = useState<EmbedDevice>('auto');
  // one change at a time: a second before the first is kept and applied could be stored under it
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    void embedDevicePreference().then((d) => live && setDevice(d));
    return () => {
      live = false;
    };
  }, []);
  const runOn = async (next: EmbedDevice) => {
    onError(null);
    setDevice(next);
    setBusy(true);
    try {
      await setEmbedDevicePreference(next);
      // the workers load the model again where it is to run (its stored vectors stay: the same model)
      await switchModel();
    } catch (err) {
      onError(toQuarryError(err));
      setDevice(await embedDevicePreference());
    } finally {
      setBusy(false);
    }
  };
  return (
    <label className="embed-device">
      Run on
      <select
        value={device}
        disabled={disabled || busy}
        data-testid="embed-device"
        onChange={(e) => void runOn(e.target.value as EmbedDevice)}
        title="Where the ONNX model runs: WebGPU needs a browser with WebGPU and JSPI; the CPU works everywhere"
      >
        <option value="auto">the GPU when there is one</option>
        <option value="webgpu">WebGPU, a software one too</option>
        <option value="wasm">the CPU</option>
      </select>
    </label>
  );
}
