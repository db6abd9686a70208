-- A connection's key has a life (issue 35, item 4; the provider's authentication page, legitimuz-core-documentation
-- api/autenticacao.mdx at 40274c2): valid one year by default and two at most, and a rotation keeps the old key valid
-- through a grace period (24 hours by default, 7 days at most, 0 revokes it at once). The dashboard cannot read a
-- key's validity from the service, so it keeps what the admin states, else the documented default from when the key
-- was added (`core_key_expiry_stated` false), and the previous key's hint and the end of its grace after a rotation.
ALTER TABLE connections ADD COLUMN core_key_expires_at timestamp with time zone;
--> statement-breakpoint
ALTER TABLE connections ADD COLUMN core_key_expiry_stated boolean NOT NULL DEFAULT false;
--> statement-breakpoint
ALTER TABLE connections ADD COLUMN previous_key_hint text;
--> statement-breakpoint
ALTER TABLE connections ADD COLUMN previous_key_until timestamp with time zone;
