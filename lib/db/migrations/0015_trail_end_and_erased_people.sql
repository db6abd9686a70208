-- The audit trail's end (lib/audit-trail/server/group-commit.ts, verify.ts): one row counts the events ever appended.
-- Writers take their ids from it, under the chain's advisory lock and in their own transaction, so ids are gapless
-- (a rolled-back append rolls the count back with it) and a missing id, or a head below the count, is a cut the
-- verifier names. The row only moves forward: the trigger below refuses lowering it, deleting it and TRUNCATE.
-- `gapless_from` is the first id so allocated (ids before it came from the sequence, where a rolled-back
-- transaction left holes): the verifier checks ids from there. `chain_id` names this trail in the copy of its head
-- kept outside the database (AUDIT_HEAD_FILE), so a copy is never compared with another database's trail.
CREATE TABLE "audit_chain_head" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"chain_id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"last_event_id" bigint NOT NULL,
	"gapless_from" bigint NOT NULL,
	CONSTRAINT "audit_chain_head_one_row" CHECK ("id")
);
--> statement-breakpoint
INSERT INTO "audit_chain_head" ("id", "last_event_id", "gapless_from")
  SELECT true, coalesce(max("id"), 0), coalesce(max("id"), 0) + 1 FROM "audit_events";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION kyc_audit_head_forward() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.id = OLD.id AND NEW.chain_id = OLD.chain_id AND NEW.gapless_from = OLD.gapless_from
     AND NEW.last_event_id >= OLD.last_event_id THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_chain_head is append-only: % refused (the count of events only moves forward)', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER audit_chain_head_forward BEFORE UPDATE OR DELETE ON audit_chain_head
  FOR EACH ROW EXECUTE FUNCTION kyc_audit_head_forward();
--> statement-breakpoint
CREATE TRIGGER audit_chain_head_no_truncate BEFORE TRUNCATE ON audit_chain_head
  FOR EACH STATEMENT EXECUTE FUNCTION kyc_audit_head_forward();
--> statement-breakpoint
-- The transaction that wrote a checkpoint (txid_current() is the top-level transaction's id, savepoints included).
-- Rows written before this migration keep null: no later transaction has their id.
ALTER TABLE "audit_checkpoints" ADD COLUMN "txid" bigint;
--> statement-breakpoint
ALTER TABLE "audit_checkpoints" ALTER COLUMN "txid" SET DEFAULT txid_current();
--> statement-breakpoint
CREATE INDEX "audit_checkpoints_prune_txid_idx" ON "audit_checkpoints" USING btree ("txid") WHERE "kind" = 'prune';
--> statement-breakpoint
-- The pruner's way through (replaces 0011's transaction-local setting, which any session could set): a DELETE of
-- an audit event passes only when the same transaction has already written a retention checkpoint covering that
-- event, and never the newest event. The database cannot check the checkpoint's signature (it has no audit key):
-- a checkpoint written by anyone else lets the DELETE through but is named as forged by `npm run audit:verify`,
-- which checks the signature of every retention checkpoint. What the prune removes is therefore always explained
-- by a checkpoint in the table, and only the audit key's holder can sign one that verifies.
CREATE OR REPLACE FUNCTION kyc_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND TG_TABLE_NAME = 'audit_events' THEN
    IF EXISTS (
      SELECT 1 FROM audit_checkpoints c
      WHERE c.kind = 'prune' AND c.txid = txid_current() AND OLD.id <= c.through_event_id
    ) AND OLD.id < (SELECT h.last_event_id FROM audit_chain_head h) THEN
      RETURN OLD;
    END IF;
  END IF;
  RAISE EXCEPTION '% is append-only: % refused (only the retention pruner deletes, after writing its signed checkpoint in the same transaction)', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
-- The people an erasure removed from the search index (lib/privacy/server/erasure.ts): their CPF's keyed hashes only,
-- one per audit key the erasure knew (and the current key's, added when a read meets the person again after a
-- rotation), so no later read indexes them again
-- (lib/cases/server/search.ts skips them in every write).
CREATE TABLE "search_index_erased" (
	"cpf_hash" text PRIMARY KEY NOT NULL,
	"erasure_id" uuid NOT NULL,
	"erased_at" timestamp with time zone NOT NULL
);
