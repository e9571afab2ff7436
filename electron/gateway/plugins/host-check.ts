import os from 'node:os';
import fp from 'fastify-plugin';
import { ApiError, LOOPBACK_HOSTS } from '../../contract';
import { PLUGIN } from './names';

/** As the Host header writes them: an IPv6 address in brackets. */
const LOOPBACK_NAMES = LOOPBACK_HOSTS.map((host) => (host.includes(':') ? `[${host}]` : host));
export const WILDCARDS = ['0.0.0.0', '::', '[::]'];

/**
 * The Host names a request may carry: the bound name and the loopback names, with the port.
 * Bound to all interfaces, the machine's own addresses and host name also pass, plus any
 * names in ORATOR_ALLOWED_HOSTS. Everything else is a DNS-rebinding attempt.
 */
export function allowedHosts(boundHost: string, port: number, extra: string[] = []): Set<string> {
  const names = new Set([...LOOPBACK_NAMES, ...extra]);
  if (WILDCARDS.includes(boundHost)) {
    names.add(os.hostname().toLowerCase());
    for (const addresses of Object.values(os.networkInterfaces())) {
      for (const a of addresses ?? []) names.add(a.family === 'IPv6' ? `[${a.address}]` : a.address);
    }
  } else {
    names.add(boundHost.includes(':') && !boundHost.startsWith('[') ? `[${boundHost}]` : boundHost.toLowerCase());
  }
  return new Set([...names].map((name) => `${name}:${port}`));
}

/** Rejects requests whose Host header is not this gateway (DNS rebinding), before routing. */
export const hostCheck = fp<{ hosts: () => Set<string> }>(
  async (app, { hosts }) => {
    app.addHook('onRequest', async (request) => {
      const host = request.headers.host?.toLowerCase();
      if (!host || !hosts().has(host)) {
        throw new ApiError('forbidden_host', `Host "${request.headers.host ?? ''}" is not allowed; use http://127.0.0.1:<port>.`);
      }
    });
  },
  { name: PLUGIN.hostCheck, dependencies: [PLUGIN.securityHeaders, PLUGIN.errors] },
);
