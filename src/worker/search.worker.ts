/** A search lane in the browser (search-pool.ts): searches the chunks the engine worker ships it. */
import { serveLane, type LaneMessage } from '../core/grep/lane';

const serve = serveLane(null, (reply) => self.postMessage(reply));
self.addEventListener('message', (e: MessageEvent<LaneMessage>) => serve(e.data));
