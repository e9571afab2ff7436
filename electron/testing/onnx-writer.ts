/**
 * Test support: ONNX models written as protobuf bytes by hand, for tests that need a model file
 * and have no weights to download. Only the fields of onnx.proto (IR 8) that a small inference
 * graph uses: nodes with int, ints and float attributes, tensor initializers, typed inputs and
 * outputs, and the metadata_props a runtime reads as the model's custom metadata.
 */

/** A protobuf message under construction: fields appended in order. */
class Message {
  private readonly parts: Buffer[] = [];

  varint(field: number, value: number | bigint): this {
    return this.key(field, 0).raw(varint(BigInt(value)));
  }
  float(field: number, value: number): this {
    const bytes = Buffer.alloc(4);
    bytes.writeFloatLE(value);
    return this.key(field, 5).raw(bytes);
  }
  bytes(field: number, value: Buffer | string | Message): this {
    const body = value instanceof Message ? value.toBuffer() : Buffer.from(value);
    return this.key(field, 2)
      .raw(varint(BigInt(body.length)))
      .raw(body);
  }
  toBuffer(): Buffer {
    return Buffer.concat(this.parts);
  }
  private key(field: number, wireType: number): this {
    return this.raw(varint(BigInt((field << 3) | wireType)));
  }
  private raw(bytes: Buffer): this {
    this.parts.push(bytes);
    return this;
  }
}

function varint(value: bigint): Buffer {
  let rest = BigInt.asUintN(64, value); // negative int64 values take ten bytes, as protobuf writes them
  const out: number[] = [];
  do {
    const low = Number(rest & 0x7fn);
    rest >>= 7n;
    out.push(rest ? low | 0x80 : low);
  } while (rest);
  return Buffer.from(out);
}

/** onnx.TensorProto.DataType */
export const FLOAT = 1;
export const INT64 = 7;

export type Attribute = { float: number } | { int: number } | { ints: number[] };

export interface OnnxNode {
  op: string;
  inputs: string[];
  outputs: string[];
  attributes?: Record<string, Attribute>;
}

export interface OnnxTensor {
  name: string;
  type: typeof FLOAT | typeof INT64;
  dims: number[];
  values: number[];
}

export interface OnnxValue {
  name: string;
  type: typeof FLOAT | typeof INT64;
  /** Sizes, or names of dimensions that vary; absent when the shape is left to the runtime. */
  shape?: (number | string)[];
}

export interface OnnxModel {
  nodes: OnnxNode[];
  initializers: OnnxTensor[];
  inputs: OnnxValue[];
  outputs: OnnxValue[];
  metadata: Record<string, string>;
  opset: number;
}

export function encodeOnnxModel(model: OnnxModel): Buffer {
  const graph = new Message();
  for (const node of model.nodes) graph.bytes(1, encodeNode(node));
  graph.bytes(2, 'graph');
  for (const tensor of model.initializers) graph.bytes(5, encodeTensor(tensor));
  for (const value of model.inputs) graph.bytes(11, encodeValueInfo(value));
  for (const value of model.outputs) graph.bytes(12, encodeValueInfo(value));
  const root = new Message()
    .varint(1, 8) // ir_version
    .bytes(2, 'orator-test')
    .bytes(7, graph)
    .bytes(8, new Message().bytes(1, '').varint(2, model.opset));
  for (const [key, value] of Object.entries(model.metadata)) root.bytes(14, new Message().bytes(1, key).bytes(2, value));
  return root.toBuffer();
}

function encodeNode(node: OnnxNode): Message {
  const message = new Message();
  for (const input of node.inputs) message.bytes(1, input);
  for (const output of node.outputs) message.bytes(2, output);
  message.bytes(4, node.op);
  for (const [name, attribute] of Object.entries(node.attributes ?? {})) {
    const encoded = new Message().bytes(1, name);
    if ('float' in attribute) encoded.float(2, attribute.float).varint(20, 1);
    else if ('int' in attribute) encoded.varint(3, attribute.int).varint(20, 2);
    else {
      for (const value of attribute.ints) encoded.varint(8, value);
      encoded.varint(20, 7);
    }
    message.bytes(5, encoded);
  }
  return message;
}

function encodeTensor(tensor: OnnxTensor): Message {
  const message = new Message();
  for (const dim of tensor.dims) message.varint(1, dim);
  message.varint(2, tensor.type).bytes(8, tensor.name);
  const raw = Buffer.alloc(tensor.values.length * (tensor.type === FLOAT ? 4 : 8));
  tensor.values.forEach((value, i) => (tensor.type === FLOAT ? raw.writeFloatLE(value, i * 4) : raw.writeBigInt64LE(BigInt(value), i * 8)));
  return message.bytes(9, raw);
}

function encodeValueInfo(value: OnnxValue): Message {
  const tensorType = new Message().varint(1, value.type);
  if (value.shape) {
    const shape = new Message();
    for (const dim of value.shape) shape.bytes(1, typeof dim === 'number' ? new Message().varint(1, dim) : new Message().bytes(2, dim));
    tensorType.bytes(2, shape);
  }
  return new Message().bytes(1, value.name).bytes(2, new Message().bytes(1, tensorType));
}
