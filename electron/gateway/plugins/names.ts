/**
 * The gateway's cross-cutting plugins, by the names fastify-plugin gives them. Each declares the
 * plugins it must come after (`dependencies`), and avvio refuses to register one before them: the
 * order of the hooks is checked, not remembered.
 */
export const PLUGIN = {
  /** First, so that requests refused by later hooks are logged too. */
  requestLog: 'orator-request-log',
  /** Before every refusal, so that refusals carry the browser headers. */
  securityHeaders: 'orator-security-headers',
  jsonBody: 'orator-json-body',
  /** Before the routes: it learns their methods for 405 answers. */
  errors: 'orator-errors',
  /** Before the key check: a rebinding page learns nothing, not even whether a key is needed. */
  hostCheck: 'orator-host-check',
  /** Before the key check: preflights carry no key. */
  desktopOrigin: 'orator-desktop-origin',
  auth: 'orator-auth',
} as const;
