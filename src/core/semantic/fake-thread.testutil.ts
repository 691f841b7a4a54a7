/** An embedding thread for tests: it records what is posted to it, and the test answers (`send`) or stops it (`die`). */
import type { EmbedReply, EmbedRequest, EmbedThread } from './thread-embedder';

export class FakeEmbedThread implements EmbedThread {
  readonly requests: EmbedRequest[] = [];
  terminated = false;
  private reply: (r: EmbedReply) => void = () => {};
  private exit: (reason: string) => void = () => {};
  post(req: EmbedRequest): void {
    this.requests.push(req);
  }
  listen(onReply: (r: EmbedReply) => void, onExit: (reason: string) => void): void {
    this.reply = onReply;
    this.exit = onExit;
  }
  terminate(): void {
    this.terminated = true;
  }
  send(r: EmbedReply): void {
    this.reply(r);
  }
  die(reason: string): void {
    this.exit(reason);
  }
}
