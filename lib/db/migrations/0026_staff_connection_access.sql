-- Permissions per connection (issue 33, item 4). A member with no row here uses every connection with their role's
-- permissions, as before; a member with rows uses those connections only, each less the permissions it withholds
-- (e.g. personal_data.unmasked and media.read withheld on production while granted on sandbox).
CREATE TABLE staff_connection_access (
  staff_id uuid NOT NULL REFERENCES staff_users(id) ON DELETE CASCADE,
  connection_id text NOT NULL REFERENCES connections(id) ON DELETE CASCADE,
  withheld text[] NOT NULL DEFAULT '{}'::text[],
  updated_at timestamp with time zone NOT NULL DEFAULT now(),
  PRIMARY KEY (staff_id, connection_id)
);
