import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import { DASHBOARD_HOME } from './login.controller.js';

/** Where `npm run build:dashboard` (run by `npm ci` through prepare, and by `npm start` when missing) writes the page. */
export const DASHBOARD_DIST = fileURLToPath(new URL('../../../dashboard/dist/', import.meta.url));

// Everything the page loads comes from this origin (no CDN); nothing may frame it (clickjacking of
// the operator buttons). uPlot sets element styles from script, which style-src does not restrict.
const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; " +
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

const securityHeaders = (reply: FastifyReply): void => {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.header(name, value);
};

/**
 * Serves the built page under /dashboard/ and sends / there. Without a build, /dashboard/ answers 503
 * with the command that builds it, instead of a bare 404.
 */
export async function serveDashboard(app: NestFastifyApplication, dist = DASHBOARD_DIST): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.get('/', (_request, reply) => reply.redirect(DASHBOARD_HOME, 302));
  if (!existsSync(`${dist}/index.html`)) {
    fastify.get(DASHBOARD_HOME, (_request, reply) => {
      securityHeaders(reply);
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The dashboard is not built: run `npm run build:dashboard` (npm ci and npm start do it) and reload.\n');
    });
    return;
  }
  // The page itself (read per request: a rebuild while running is served at once).
  fastify.get(DASHBOARD_HOME, async (_request, reply) => {
    securityHeaders(reply);
    return reply
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(await readFile(`${dist}/index.html`));
  });
  await fastify.register(fastifyStatic, {
    root: dist,
    prefix: DASHBOARD_HOME,
    decorateReply: false,
    index: false,
    setHeaders: (reply: FastifyReply, path: string) => {
      securityHeaders(reply);
      // Hashed asset names never change content; the page itself must always be revalidated.
      reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}
