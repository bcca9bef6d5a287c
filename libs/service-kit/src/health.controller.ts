import { Controller, Get, HttpException, HttpStatus, Inject, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
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
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
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

  /** Through the HTTP adapter, so the same controller serves on Express (projector, decision) and Fastify (API). */
  @Get('metrics')
  async prometheus(@Res({ passthrough: true }) response: unknown): Promise<string> {
    this.adapterHost.httpAdapter.setHeader(response, 'content-type', this.registry.contentType);
    return this.registry.metrics();
  }
}
