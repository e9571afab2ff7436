declare module '@mediabunny/aac-encoder/wasm' {
  /**
   * The Emscripten module of FFmpeg's AAC encoder inside @mediabunny/aac-encoder (its
   * dist/modules/build/aac.js, which the package does not export: electron/tools/build.ts bundles
   * it). Its members are typed where they are used.
   */
  const createModule: () => Promise<unknown>;
  export default createModule;
}
