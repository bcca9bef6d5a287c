CREATE TABLE "agent_events" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"tenant" text NOT NULL,
	"run" text,
	"agent" text,
	"type" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"cloud_event" jsonb NOT NULL,
	"kafka_topic" text,
	"kafka_partition" integer,
	"kafka_offset" bigint,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agent_events_seq_key" UNIQUE("seq"),
	CONSTRAINT "agent_events_tenant_not_empty" CHECK ("agent_events"."tenant" <> '')
);
--> statement-breakpoint
CREATE TABLE "decision_outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant" text NOT NULL,
	"key_id" text NOT NULL,
	"state_version" integer NOT NULL,
	"state_snapshot" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	CONSTRAINT "decision_outbox_tenant_not_empty" CHECK ("decision_outbox"."tenant" <> ''),
	CONSTRAINT "decision_outbox_attempts_not_negative" CHECK ("decision_outbox"."attempts" >= 0)
);
--> statement-breakpoint
CREATE TABLE "failure_state" (
	"key_id" text PRIMARY KEY NOT NULL,
	"tenant" text NOT NULL,
	"scope" text NOT NULL,
	"run" text,
	"principal" text,
	"resource_id" text,
	"tool_name" text NOT NULL,
	"resource_class" text,
	"auth_scope" text,
	"error_class" text NOT NULL,
	"side_effect_boundary" boolean NOT NULL,
	"status" text NOT NULL,
	"budget" integer NOT NULL,
	"retry_count" integer NOT NULL,
	"verifier_status" text NOT NULL,
	"state" jsonb NOT NULL,
	"version" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "failure_state_tenant_not_empty" CHECK ("failure_state"."tenant" <> ''),
	CONSTRAINT "failure_state_scope_known" CHECK ("failure_state"."scope" in ('fleet', 'run')),
	CONSTRAINT "failure_state_counts_not_negative" CHECK ("failure_state"."budget" >= 0 and "failure_state"."retry_count" >= 0 and "failure_state"."version" >= 0)
);
--> statement-breakpoint
CREATE TABLE "interventions" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"tenant" text NOT NULL,
	"run" text,
	"agent" text,
	"level" text NOT NULL,
	"failure_class" text NOT NULL,
	"key_id" text NOT NULL,
	"tool_name" text NOT NULL,
	"resource_class" text,
	"auth_scope" text,
	"principal" text,
	"resource_id" text,
	"next_action" text NOT NULL,
	"artifact" jsonb NOT NULL,
	"policy_version" text NOT NULL,
	"state_version" integer NOT NULL,
	"causing_event_ids" text[] NOT NULL,
	"prev_hash" text,
	"hash" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	CONSTRAINT "interventions_id_key" UNIQUE("id"),
	CONSTRAINT "interventions_tenant_prev_hash_key" UNIQUE NULLS NOT DISTINCT("tenant","prev_hash"),
	CONSTRAINT "interventions_tenant_not_empty" CHECK ("interventions"."tenant" <> ''),
	CONSTRAINT "interventions_hash_is_sha256_hex" CHECK ("interventions"."hash" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE TABLE "projector_checkpoints" (
	"consumer_group" text NOT NULL,
	"topic" text NOT NULL,
	"partition" integer NOT NULL,
	"next_offset" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "projector_checkpoints_pkey" PRIMARY KEY("consumer_group","topic","partition"),
	CONSTRAINT "projector_checkpoints_position_not_negative" CHECK ("projector_checkpoints"."partition" >= 0 and "projector_checkpoints"."next_offset" >= 0)
);
--> statement-breakpoint
CREATE INDEX "agent_events_tenant_run_occurred_at_idx" ON "agent_events" USING btree ("tenant","run","occurred_at");--> statement-breakpoint
CREATE INDEX "decision_outbox_pending_idx" ON "decision_outbox" USING btree ("created_at") WHERE "decision_outbox"."published_at" is null;--> statement-breakpoint
CREATE INDEX "failure_state_tenant_run_tool_idx" ON "failure_state" USING btree ("tenant","run","tool_name");--> statement-breakpoint
CREATE INDEX "failure_state_tenant_principal_resource_idx" ON "failure_state" USING btree ("tenant","principal","resource_class","resource_id");--> statement-breakpoint
CREATE INDEX "interventions_tenant_seq_idx" ON "interventions" USING btree ("tenant","seq");--> statement-breakpoint
CREATE INDEX "interventions_tenant_issued_at_idx" ON "interventions" USING btree ("tenant","issued_at");--> statement-breakpoint
CREATE INDEX "interventions_tenant_failure_class_issued_at_idx" ON "interventions" USING btree ("tenant","failure_class","issued_at");--> statement-breakpoint
CREATE INDEX "interventions_tenant_tool_name_issued_at_idx" ON "interventions" USING btree ("tenant","tool_name","issued_at");--> statement-breakpoint
CREATE INDEX "interventions_tenant_principal_issued_at_idx" ON "interventions" USING btree ("tenant","principal","issued_at");--> statement-breakpoint
CREATE INDEX "interventions_tenant_run_idx" ON "interventions" USING btree ("tenant","run");