import { Controller, Get, HttpException, HttpStatus, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ProjectorMetrics } from './projector-metrics.js';
import { ProjectorService } from './projector.service.js';

@Controller()
export class HealthController {
  constructor(
    @Inject(ProjectorService) private readonly projector: ProjectorService,
    @Inject(ProjectorMetrics) private readonly metrics: ProjectorMetrics,
  ) {}

  /** Liveness: the process answers. Restarting it would not help anything else. */
  @Get('health/live')
  live() {
    return { status: 'ok' };
  }

  /** Readiness: consuming and the database answers. */
  @Get('health/ready')
  async ready() {
    const status = await this.projector.readiness();
    if (!status.ready) throw new HttpException(status, HttpStatus.SERVICE_UNAVAILABLE);
    return status;
  }

  @Get('metrics')
  async prometheus(@Res() response: Response) {
    response.setHeader('content-type', this.metrics.registry.contentType);
    response.send(await this.metrics.registry.metrics());
  }
}
