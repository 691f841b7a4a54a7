/** The import graph's layout, off the page's thread (layout-client.ts starts it; layout-protocol.ts is the contract). */
import { answerLayout, transferablesOf, type LayoutRequest } from './layout-protocol';

const scope = self as unknown as {
  postMessage(message: unknown, transfer: Transferable[]): void;
  addEventListener: typeof self.addEventListener;
};
scope.addEventListener('message', (e) => {
  const answer = answerLayout((e as MessageEvent<LayoutRequest>).data);
  scope.postMessage(answer, transferablesOf(answer));
});
