declare module '@echogarden/espeak-ng-emscripten' {
  /** Instantiates the Emscripten module; its members are typed where they are used. */
  const createModule: () => Promise<unknown>;
  export default createModule;
}
