/**
 * `npm run bench:encode [-- --chars 10000 --minutes 0]`: speed and size of every output format
 * (electron/tools/bench/encode-table.ts); `npm run bench` prints the same table.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { encodeTable } from './bench/encode-table';

const { values } = parseArgs({ options: { chars: { type: 'string', default: '10000' }, minutes: { type: 'string', default: '0' } } });
console.log(`Orator encode bench: ${os.cpus()[0]?.model}, ${os.availableParallelism()} cores, Node ${process.version}`);
await encodeTable({ chars: Number(values.chars), minutes: Number(values.minutes) });
