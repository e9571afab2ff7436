declare module '@echogarden/svoxpico-wasm' {
  /** Instantiates the Emscripten module; the members used are typed in wasm.ts. */
  const createModule: () => Promise<unknown>;
  export default createModule;
}
