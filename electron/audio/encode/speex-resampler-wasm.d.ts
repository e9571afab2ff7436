declare module '@echogarden/speex-resampler-wasm' {
  /** Instantiates the Emscripten module; its members are typed where they are used. */
  const createModule: () => Promise<unknown>;
  export default createModule;
}
