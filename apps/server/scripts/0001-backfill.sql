--> statement-breakpoint
-- Accounts created before the ledger existed get their four wallets.
INSERT INTO "user_wallets" ("user_id", "asset_id", "network")
SELECT u.id, a.asset_id, a.network
  FROM "users" u
  CROSS JOIN (VALUES ('BTC', 'bitcoin'), ('ETH', 'ethereum'), ('USDT-ERC20', 'erc20'), ('USDT-TRC20', 'trc20')) AS a(asset_id, network)
ON CONFLICT ("user_id", "asset_id") DO NOTHING;
