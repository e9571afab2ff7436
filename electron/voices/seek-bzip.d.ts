declare module 'seek-bzip' {
  /** The parts of seek-bzip that extract.ts uses: streams that read and write a byte at a time. */
  interface InputStream {
    readByte(): number;
    read(buffer: Buffer, offset: number, length: number): number;
    eof(): boolean;
  }
  interface OutputStream {
    writeByte(byte: number): void;
  }
  const Bunzip: { decode(input: InputStream, output: OutputStream, multistream?: boolean): void };
  export default Bunzip;
}
