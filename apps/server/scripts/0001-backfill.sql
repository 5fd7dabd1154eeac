--> statement-breakpoint
-- Accounts created before the ledger existed get their four wallets.
INSERT INTO "user_wallets" ("user_id", "asset_id", "network")
SELECT u.id, a.asset_id, a.network
  FROM "users" u
  CROSS JOIN (VALUES ('BTC', 'bitcoin'), ('ETH', 'ethereum'), ('USDT-ERC20', 'erc20'), ('USDT-TRC20', 'trc20')) AS a(asset_id, network)
ON CONFLICT ("user_id", "asset_id") DO NOTHING;
--> statement-breakpoint
-- Live row counts per user, kept by statement-level triggers: one update per statement,
-- however many rows it writes.
CREATE FUNCTION transactions_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_transaction_counts (user_id, live_count)
  SELECT user_id, count(*) FROM inserted_rows WHERE deleted_at IS NULL GROUP BY user_id
  ON CONFLICT (user_id) DO UPDATE SET live_count = user_transaction_counts.live_count + EXCLUDED.live_count;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION transactions_count_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE user_transaction_counts c SET live_count = c.live_count + d.delta
    FROM (SELECT n.user_id,
                 sum(CASE WHEN o.deleted_at IS NULL AND n.deleted_at IS NOT NULL THEN -1
                          WHEN o.deleted_at IS NOT NULL AND n.deleted_at IS NULL THEN 1 ELSE 0 END) AS delta
            FROM new_rows n JOIN old_rows o ON o.id = n.id GROUP BY n.user_id) d
   WHERE c.user_id = d.user_id AND d.delta <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION transactions_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE user_transaction_counts c SET live_count = c.live_count - d.n
    FROM (SELECT user_id, count(*) AS n FROM deleted_rows WHERE deleted_at IS NULL GROUP BY user_id) d
   WHERE c.user_id = d.user_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER transactions_count_insert AFTER INSERT ON transactions
  REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION transactions_count_inserted();
--> statement-breakpoint
CREATE TRIGGER transactions_count_update AFTER UPDATE ON transactions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transactions_count_updated();
--> statement-breakpoint
CREATE TRIGGER transactions_count_delete AFTER DELETE ON transactions
  REFERENCING OLD TABLE AS deleted_rows FOR EACH STATEMENT EXECUTE FUNCTION transactions_count_deleted();
--> statement-breakpoint
-- The audit log is append-only (DEVIATIONS M7): the database itself refuses to change or
-- remove a row, whatever code or console asks. A statement trigger also stops an UPDATE or
-- DELETE that matches no row, and TRUNCATE, which row triggers never see. Whoever can
-- disable triggers can still get round this; the rows' hash chain shows that they did.
CREATE FUNCTION audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP;
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_change();
