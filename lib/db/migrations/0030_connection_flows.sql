-- A connection's flows (issue 35, item 2): every creation example of the provider sends `flow_public_id`
-- (legitimuz-examples pocs/express-backend/server.ts at 7780eac; pocs/multi-integration/lib/canais.ts at bb5be95, one
-- flow per integration), and no operation lists an integration's flows. So the admin names them with the connection:
-- a JSON array of {id, label} in the order the creation dialog offers them, the first being the default. Empty: the
-- dialog takes any flow id, and none sent means the integration's own default flow.
ALTER TABLE connections ADD COLUMN flows jsonb NOT NULL DEFAULT '[]'::jsonb;
