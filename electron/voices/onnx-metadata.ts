/**
 * Adds metadata to an ONNX model without parsing it. Protobuf merges a message written twice:
 * fields appended to the end of a serialized ModelProto join it, and a repeated field such as
 * metadata_props (field 14) gains the new entries. sherpa-onnx reads its settings from there.
 */
import { appendFile } from 'node:fs/promises';

const METADATA_PROPS = 14;
const KEY = 1;
const VALUE = 2;
const LENGTH_DELIMITED = 2;

function varint(value: number): Buffer {
  const out: number[] = [];
  let rest = value;
  do {
    const low = rest & 0x7f;
    rest = Math.floor(rest / 128);
    out.push(rest ? low | 0x80 : low);
  } while (rest);
  return Buffer.from(out);
}

function field(number: number, body: Buffer): Buffer {
  return Buffer.concat([varint((number << 3) | LENGTH_DELIMITED), varint(body.length), body]);
}

/** The bytes of metadata_props entries (StringStringEntryProto: key 1, value 2), in order. */
export function encodeMetadata(entries: Record<string, string | number>): Buffer {
  return Buffer.concat(
    Object.entries(entries).map(([key, value]) =>
      field(METADATA_PROPS, Buffer.concat([field(KEY, Buffer.from(key)), field(VALUE, Buffer.from(String(value)))])),
    ),
  );
}

/** Appends metadata entries to the model file in place. */
export async function appendOnnxMetadata(file: string, entries: Record<string, string | number>): Promise<void> {
  await appendFile(file, encodeMetadata(entries));
}
