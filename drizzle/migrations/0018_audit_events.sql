CREATE TABLE "audit_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"actor_user_id" text,
	"actor_email" text,
	"actor_role" text,
	"action" text NOT NULL,
	"target_type" text,
	"target_id" text,
	"before" jsonb,
	"after" jsonb,
	"request_id" text,
	"client_address" text,
	"user_agent" text,
	"prev_hash" text,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "audit_events_at_idx" ON "audit_events" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "audit_events_actor_idx" ON "audit_events" USING btree ("actor_user_id","at","id");--> statement-breakpoint
CREATE INDEX "audit_events_actor_email_idx" ON "audit_events" USING btree (lower("actor_email"),"at","id");--> statement-breakpoint
CREATE INDEX "audit_events_action_idx" ON "audit_events" USING btree ("action","at","id");--> statement-breakpoint
CREATE INDEX "audit_events_target_idx" ON "audit_events" USING btree ("target_type","target_id","at","id");--> statement-breakpoint
CREATE INDEX "audit_events_failed_sign_in_address_idx" ON "audit_events" USING btree ("client_address","at") WHERE "action" = 'auth.sign_in_failed';--> statement-breakpoint
CREATE FUNCTION audit_events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' AND current_setting('switchyard.audit_prune', true) = 'on' THEN
		RETURN OLD;
	END IF;
	RAISE EXCEPTION 'audit_events is append-only: % refused (retention runs through audit_prune)', TG_OP
		USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER "audit_events_append_only" BEFORE UPDATE OR DELETE ON "audit_events"
	FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_change();
--> statement-breakpoint
CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events"
	FOR EACH STATEMENT EXECUTE FUNCTION audit_events_refuse_change();
--> statement-breakpoint
CREATE FUNCTION audit_prune(older_than timestamp with time zone) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	first_kept bigint;
	pruned bigint;
BEGIN
	SELECT min(id) INTO first_kept FROM audit_events WHERE at >= older_than;
	PERFORM set_config('switchyard.audit_prune', 'on', true);
	DELETE FROM audit_events WHERE first_kept IS NULL OR id < first_kept;
	GET DIAGNOSTICS pruned = ROW_COUNT;
	PERFORM set_config('switchyard.audit_prune', 'off', true);
	RETURN pruned;
END $$;
