-- The dashboard's "held now" view reads each unresolved key's latest intervention and count: one probe here per key.
CREATE INDEX IF NOT EXISTS "interventions_tenant_key_id_seq_idx" ON "interventions" USING btree ("tenant","key_id","seq");
