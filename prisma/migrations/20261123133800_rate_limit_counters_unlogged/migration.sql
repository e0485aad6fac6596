-- Rate-limit counters live for one window (a minute for the REST API) and are written on every
-- request. An unlogged table skips the write-ahead log: each count is cheaper and commits without
-- waiting for a disk flush. The price: after a PostgreSQL crash or a failover to a standby the
-- counters start again from zero, so a key may get one extra window's worth of requests then.
-- Prisma's schema does not describe this, so later migrations leave it as it is.
ALTER TABLE "RateLimitCounter" SET UNLOGGED;
