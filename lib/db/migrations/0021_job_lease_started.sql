-- When each job's last run started (issue 36, "jobs on time"): a schedule's gap is measured from one start to the
-- next, so a job due every minute runs every minute. Measured from the last finish, the next look a minute after
-- the previous start found the gap a few milliseconds short and waited for the look after: a one-minute sync ran
-- about every 1.5 minutes on two instances. Empty until each job's next run, which then falls back on
-- last_finished_at; additive, so a previous release running beside this one in a rolling deploy is unaffected.
ALTER TABLE job_leases ADD COLUMN last_started_at timestamp with time zone;
