/**
 * The install bench's file server, in a process of its own (bench-voices.ts forks it) so that
 * serving takes none of the downloader's thread: serves the file named in argv as `/<its name>`
 * (testing/file-server.ts: ETag, Range), says its URL, and takes misbehaviours (a cut) by message.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { startFileServer, type Misbehaviour } from '../../testing/file-server';

const file = process.argv[2];
if (!file || !process.send) throw new Error('usage: fork file-server-child.ts <file>');
const server = await startFileServer(new Map([[`/${path.basename(file)}`, await readFile(file)]]));
process.on('message', (misbehave: Misbehaviour) => {
  server.misbehave = misbehave;
  process.send!('set');
});
process.on('disconnect', () => void server.close().then(() => process.exit(0)));
process.send({ url: server.url });
