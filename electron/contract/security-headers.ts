/**
 * The headers that keep browsers from misusing the gateway's answers, in one place for both hosts
 * of the studio: the desktop window (app://orator, electron/shell/app-protocol.ts) and the web
 * studio that the gateway serves at "/" (electron/gateway/plugins/security-headers.ts).
 */

/** On every answer, API ones included: no MIME sniffing, and no Referer to wherever a page links. */
export const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

/**
 * The studio's Content-Security-Policy: its own scripts only, network only to the gateway
 * (`'self'` for the web studio, which the gateway serves itself). Styles allow 'unsafe-inline'
 * because wavesurfer.js puts a <style> into its shadow root; no script may be inline, evaluated or
 * remote. No page may frame the studio (clickjacking).
 */
export function contentSecurityPolicy(gatewayOrigin: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src ${gatewayOrigin}`,
    `media-src ${gatewayOrigin} blob:`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-src 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Every response of a studio page or file. */
export function studioPageHeaders(gatewayOrigin: string): Record<string, string> {
  return { 'content-security-policy': contentSecurityPolicy(gatewayOrigin), ...SECURITY_HEADERS };
}
