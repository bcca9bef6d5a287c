import { Controller, Get, HttpException, HttpStatus, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { Registry } from 'prom-client';

/** Answers readiness for one process: `ready` plus whatever facts explain it. */
export type ReadinessProbe = () => Promise<{ ready: boolean } & Record<string, unknown>>;

export const READINESS_PROBE = Symbol('READINESS_PROBE');
export const METRICS_REGISTRY = Symbol('METRICS_REGISTRY');

/** /health/live, /health/ready and /metrics, shared by every app. */
@Controller()
export class HealthController {
  constructor(
    @Inject(READINESS_PROBE) private readonly readiness: ReadinessProbe,
    @Inject(METRICS_REGISTRY) private readonly registry: Registry,
  ) {}

  /** Liveness: the process answers; restarting it would fix nothing else. */
  @Get('health/live')
  live() {
    return { status: 'ok' };
  }

  @Get('health/ready')
  async ready() {
    const status = await this.readiness();
    if (!status.ready) throw new HttpException(status, HttpStatus.SERVICE_UNAVAILABLE);
    return status;
  }

  @Get('metrics')
  async prometheus(@Res() response: Response) {
    response.setHeader('content-type', this.registry.contentType);
    response.send(await this.registry.metrics());
  }
}
