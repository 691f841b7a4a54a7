/** A search lane in the browser (search-pool.ts): searches the chunks the engine worker ships it. */
import { serveLane, transferables, type LaneMessage } from '../core/grep/lane';

const scope = self as unknown as {
  postMessage(message: unknown, transfer: Transferable[]): void;
  addEventListener: typeof self.addEventListener;
};
const serve = serveLane(null, (reply) => scope.postMessage(reply, transferables(reply)));
scope.addEventListener('message', (e) => serve((e as MessageEvent<LaneMessage>).data));
