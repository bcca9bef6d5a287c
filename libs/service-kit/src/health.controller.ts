import { Controller, Get, HttpException, HttpStatus, Inject, Optional, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Registry } from 'prom-client';

/** Answers readiness for one process: `ready` plus whatever facts explain it. */
export type ReadinessProbe = () => Promise<{ ready: boolean } & Record<string, unknown>>;

export const READINESS_PROBE = Symbol('READINESS_PROBE');

/** Answers liveness where a process can die inside while still answering HTTP (e.g. a stopped consumer). */
export type LivenessProbe = () => { live: boolean } & Record<string, unknown>;

export const LIVENESS_PROBE = Symbol('LIVENESS_PROBE');
export const METRICS_REGISTRY = Symbol('METRICS_REGISTRY');

/** /health/live, /health/ready and /metrics, shared by every app. */
@Controller()
export class HealthController {
  constructor(
    @Inject(READINESS_PROBE) private readonly readiness: ReadinessProbe,
    @Inject(METRICS_REGISTRY) private readonly registry: Registry,
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
    @Optional() @Inject(LIVENESS_PROBE) private readonly liveness?: LivenessProbe,
  ) {}

  /** Liveness: the process answers and (where a probe is given) is not dead inside; 503 asks for a restart. */
  @Get('health/live')
  live() {
    const status = this.liveness?.();
    if (status && !status.live) throw new HttpException({ status: 'dead', ...status }, HttpStatus.SERVICE_UNAVAILABLE);
    return { status: 'ok', ...status };
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
