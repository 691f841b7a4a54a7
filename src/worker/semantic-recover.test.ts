/**
 * A run that fails on the model (an embedding thread stopped) does not leave semantic search
 * failing until the model is reset: the next run asks the loader again (a pool starts a fresh
 * thread and gives the same model while its threads run), and a model the loader replaced is
 * disposed.
 */
import { describe, expect, it } from 'vitest';
import { Foreground } from '../core/jobs/yielder';
import { FakeModel, indexFiles } from '../core/semantic/fake-model.testutil';
import type { Roots } from './roots';
import { rootsOver } from './semantic-roots.testutil';
import { SemanticService } from './semantic';

const FILES = {
  'src/a.ts': 'function loadSettings\nread the settings file\n',
  'src/b.ts': 'function sendMail\nsend a welcome mail\n',
};

const roots = (): Roots => rootsOver({ app: { index: indexFiles(FILES), files: FILES } });

/** A fake model whose embeds fail while `stopped` (as a model over a thread that died does). */
class StoppableModel extends FakeModel {
  stopped = false;
  disposed = 0;
  override async embed(texts: readonly string[]): Promise<Float32Array> {
    if (this.stopped) throw new Error('The embedding worker stopped (it could not start, or it crashed)');
    return super.embed(texts);
  }
  dispose(): void {
    this.disposed++;
  }
}

describe('SemanticService after a failed run', () => {
  it('asks the loader again; the same model given back is kept, not disposed', async () => {
    const model = new StoppableModel();
    model.stopped = true;
    let loads = 0;
    const service = new SemanticService({
      loadModel: async () => {
        loads++;
        // the pool's second load starts a fresh thread in place of the stopped one
        if (loads > 1) model.stopped = false;
        return model;
      },
      foreground: new Foreground(),
    });
    const r = roots();
    await expect(service.sync(r)).rejects.toThrow('The embedding worker stopped');
    // the status still names the model that failed
    expect(service.status(r)).toMatchObject({ state: 'failed', model: model.id });
    const sync = await service.sync(r);
    expect(loads).toBe(2);
    expect(sync.coverage.searched).toBe(sync.coverage.of);
    expect(sync.coverage.of).toBeGreaterThan(0);
    expect(model.disposed).toBe(0);
    expect(service.status(r).state).toBe('ready');
  });

  it('disposes the failed model when the loader gives another', async () => {
    const dead = new StoppableModel();
    dead.stopped = true;
    const fresh = new StoppableModel();
    const given = [dead, fresh];
    const service = new SemanticService({
      loadModel: async () => given.shift()!,
      foreground: new Foreground(),
    });
    const r = roots();
    await expect(service.sync(r)).rejects.toThrow('stopped');
    expect(dead.disposed).toBe(0);
    await service.sync(r);
    expect(dead.disposed).toBe(1);
    expect(fresh.disposed).toBe(0);
    expect(fresh.texts).toBeGreaterThan(0);
  });
});
