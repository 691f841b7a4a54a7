/**
 * A search lane of the Node pool (search-pool.ts): searches the chunks it is sent, reading the
 * root from disk by path (a fresh NodeFsSource per chunk, so its inside-the-root checks are
 * never older than the search) or the bytes shipped in the chunk.
 */
import { parentPort } from 'node:worker_threads';
import { serveLane, transferables, type LaneMessage } from '../../core/grep/lane';
import { NodeFsSource } from './fs';

const port = parentPort;
if (!port) throw new Error('search-thread runs as a worker thread');
const serve = serveLane(
  (root) => new NodeFsSource(root),
  (reply) => port.postMessage(reply, transferables(reply)),
);
port.on('message', (m: LaneMessage) => serve(m));
