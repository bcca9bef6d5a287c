-- GET /v1/state pages a tenant's failure states newest change first, under row-level security
-- (tenant = current_setting(...)): this index serves the order and the keyset cursor without a sort.
CREATE INDEX "failure_state_tenant_updated_idx" ON "failure_state" USING btree ("tenant","updated_at" DESC,"key_id" DESC);
