import type { INestApplication } from '@nestjs/common';
import { listenOrExplain } from '@tokencircuit/service-kit';

/**
 * `app` listening on its port, or closed and the start refused with the variable that moves it: closing stops
 * a consumer, which leaves its group now rather than after its session timeout.
 */
export async function listening<App extends INestApplication>(
  app: App,
  where: { port: number; host: string; variable: string },
): Promise<App> {
  try {
    await listenOrExplain(() => app.listen(where.port, where.host), where);
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  return app;
}
