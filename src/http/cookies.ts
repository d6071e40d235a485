import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Skein's two cookies, named and set in one place (decisions.md "Security rules"): the session
 * cookie and the connect cookie (the browser an OAuth connect was started in). Both are `Secure`
 * whenever PUBLIC_URL is https, and then carry the `__Host-` prefix (the browser keeps such a
 * cookie only when Secure, `Path=/` and without `Domain`, so no other host or path can set it);
 * on plain http they keep their plain names. HttpOnly and SameSite=Lax always.
 */

type CookieBase = 'skein_session' | 'skein_connect';

function isSecure(publicUrl: string): boolean {
  return publicUrl.startsWith('https:');
}

export function cookieName(publicUrl: string, base: CookieBase): string {
  return isSecure(publicUrl) ? `__Host-${base}` : base;
}

/** Adds one Set-Cookie (Fastify appends every set-cookie header); `maxAgeSeconds` 0 clears it. */
export function setCookie(reply: FastifyReply, publicUrl: string, base: CookieBase, value: string, maxAgeSeconds: number): void {
  const parts = [`${cookieName(publicUrl, base)}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAgeSeconds}`];
  if (isSecure(publicUrl)) parts.push('Secure');
  reply.header('set-cookie', parts.join('; '));
}

/** The value of one of Skein's cookies in the request, or undefined. */
export function readCookie(request: FastifyRequest, publicUrl: string, base: CookieBase): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  const name = cookieName(publicUrl, base);
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
