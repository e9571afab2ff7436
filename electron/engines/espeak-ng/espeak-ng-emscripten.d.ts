declare module '@echogarden/espeak-ng-emscripten' {
  /** Instantiates the Emscripten module; its members are typed where they are used. */
  const createModule: (options?: {
    /** Instead of reading the data file: a buffer of `size` bytes that its files are views of. */
    getPreloadedPackage?: (name: string, size: number) => ArrayBuffer;
  }) => Promise<unknown>;
  export default createModule;
}
