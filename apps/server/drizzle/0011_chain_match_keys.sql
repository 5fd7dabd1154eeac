ALTER TABLE "deposit_addresses" ADD COLUMN "match_key" text;--> statement-breakpoint
CREATE INDEX "deposit_addresses_match_key_idx" ON "deposit_addresses" USING btree ("match_key") WHERE match_key <> '';--> statement-breakpoint
CREATE INDEX "deposit_addresses_unkeyed_idx" ON "deposit_addresses" USING btree ("created_at") WHERE match_key IS NULL;--> statement-breakpoint
-- A changed address (or asset, hence chain) needs its key worked out again, whoever changes it.
CREATE FUNCTION deposit_address_rekey() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.address, NEW.asset_symbol, NEW.network) IS DISTINCT FROM
     (OLD.address, OLD.asset_symbol, OLD.network) THEN
    NEW.match_key := NULL;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER deposit_addresses_rekey BEFORE UPDATE ON deposit_addresses
  FOR EACH ROW EXECUTE FUNCTION deposit_address_rekey();
