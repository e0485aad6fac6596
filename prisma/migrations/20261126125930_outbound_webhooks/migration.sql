-- CreateEnum
CREATE TYPE "WebhookDeliveryStatus" AS ENUM ('pending', 'succeeded', 'failed');

-- CreateTable
CREATE TABLE "WebhookEndpoint" (
    "id" TEXT NOT NULL DEFAULT ('whe_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)),
    "workspaceId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "events" TEXT[],
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabledReason" TEXT,
    "secretSealed" TEXT NOT NULL,
    "previousSecretSealed" TEXT,
    "previousSecretExpiresAt" TIMESTAMP(3),
    "failingSince" TIMESTAMP(3),
    "lastSuccessAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WebhookEndpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookEvent" (
    "id" TEXT NOT NULL DEFAULT ('msg_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)),
    "workspaceId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "occurredAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL DEFAULT ('whd_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)),
    "workspaceId" TEXT NOT NULL,
    "endpointId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "status" "WebhookDeliveryStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedUntil" TIMESTAMP(3),
    "lockToken" TEXT,
    "lastStatus" INTEGER,
    "lastError" TEXT,
    "deliveredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookAttempt" (
    "id" TEXT NOT NULL DEFAULT ('wha_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)),
    "deliveryId" TEXT NOT NULL,
    "status" INTEGER,
    "latencyMs" INTEGER NOT NULL,
    "response" TEXT NOT NULL DEFAULT '',
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebhookEndpoint_workspaceId_idx" ON "WebhookEndpoint"("workspaceId");

-- CreateIndex
CREATE INDEX "WebhookEvent_workspaceId_createdAt_idx" ON "WebhookEvent"("workspaceId", "createdAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_status_nextAttemptAt_idx" ON "WebhookDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_endpointId_createdAt_id_idx" ON "WebhookDelivery"("endpointId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "WebhookAttempt_deliveryId_at_idx" ON "WebhookAttempt"("deliveryId", "at");

-- AddForeignKey
ALTER TABLE "WebhookEndpoint" ADD CONSTRAINT "WebhookEndpoint_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookEvent" ADD CONSTRAINT "WebhookEvent_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "WebhookEndpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "WebhookEvent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookAttempt" ADD CONSTRAINT "WebhookAttempt_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "WebhookDelivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The outbox: triggers write an event (and its deliveries to every enabled endpoint that chose
-- its type) in the same transaction as the change it reports, so no event is lost and none is
-- sent for a change that rolled back. Nothing is written for a workspace with no such endpoint.
-- Event types and their `data` are documented in src/server/webhooks/events.ts.

CREATE FUNCTION webhook_time(t TIMESTAMP) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
  SELECT to_char(t, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;

CREATE FUNCTION webhook_subscribed(ws TEXT, etype TEXT) RETURNS BOOLEAN LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM "WebhookEndpoint" e WHERE e."workspaceId" = ws AND e.enabled AND etype = ANY (e.events))
$$;

CREATE FUNCTION webhook_emit(ws TEXT, etype TEXT, payload JSONB, at TIMESTAMP) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
  event_id TEXT;
  now_utc TIMESTAMP := now() AT TIME ZONE 'UTC';
BEGIN
  INSERT INTO "WebhookEvent" ("workspaceId", type, data, "occurredAt", "createdAt")
  VALUES (ws, etype, jsonb_strip_nulls(payload), COALESCE(at, now_utc), now_utc)
  RETURNING id INTO event_id;
  INSERT INTO "WebhookDelivery" ("workspaceId", "endpointId", "eventId", "nextAttemptAt", "createdAt", "updatedAt")
  SELECT ws, e.id, event_id, now_utc, now_utc, now_utc
  FROM "WebhookEndpoint" e
  WHERE e."workspaceId" = ws AND e.enabled AND etype = ANY (e.events);
END
$$;

-- entry_event.completed / skipped / failed / held_out
CREATE FUNCTION webhook_entry_event() RETURNS TRIGGER LANGUAGE plpgsql AS $$
DECLARE etype TEXT := 'entry_event.' || NEW.status::text;
BEGIN
  IF NOT webhook_subscribed(NEW."workspaceId", etype) THEN RETURN NULL; END IF;
  PERFORM webhook_emit(NEW."workspaceId", etype, jsonb_build_object(
    'eventId', NEW.id,
    'campaignId', NEW."campaignId",
    'contactId', NEW."contactId",
    'status', NEW.status::text,
    'source', NEW.source::text,
    'idempotencyKey', NEW."idempotencyKey",
    'skipReason', NEW."skipReason",
    'enrollmentId', (SELECT en.id FROM "Enrollment" en WHERE en."entryEventId" = NEW.id),
    'occurredAt', webhook_time(NEW."occurredAt"),
    'completedAt', webhook_time(NEW."completedAt")
  ), NEW."completedAt");
  RETURN NULL;
END
$$;
CREATE TRIGGER webhook_entry_event_update AFTER UPDATE OF status ON "EntryEvent" FOR EACH ROW
  WHEN (NEW.status IS DISTINCT FROM OLD.status AND NEW.status IN ('completed', 'skipped', 'failed', 'held_out'))
  EXECUTE FUNCTION webhook_entry_event();
CREATE TRIGGER webhook_entry_event_insert AFTER INSERT ON "EntryEvent" FOR EACH ROW
  WHEN (NEW.status IN ('completed', 'skipped', 'failed', 'held_out'))
  EXECUTE FUNCTION webhook_entry_event();

-- piece.printed / piece.mailed / piece.failed
CREATE FUNCTION webhook_piece_data(p "MailPiece") RETURNS JSONB LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'pieceId', p.id,
    'campaignId', p."campaignId",
    'contactId', p."contactId",
    'enrollmentId', p."enrollmentId",
    'eventId', (SELECT en."entryEventId" FROM "Enrollment" en WHERE en.id = p."enrollmentId"),
    'sid', p.sid,
    'status', p.status::text,
    'vendor', p.vendor,
    'vendorRef', p."vendorRef",
    'costCents', p."costCents",
    'printedAt', webhook_time(p."printedAt"),
    'mailedAt', webhook_time(p."mailedAt")
  )
$$;
CREATE FUNCTION webhook_piece_emit(p "MailPiece", etype TEXT, at TIMESTAMP) RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
  IF webhook_subscribed(p."workspaceId", etype) THEN
    PERFORM webhook_emit(p."workspaceId", etype, webhook_piece_data(p), at);
  END IF;
END
$$;
-- A vendor may print and mail in one step (the sandbox does): each date that appears is its own event.
CREATE FUNCTION webhook_piece_status() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."printedAt" IS NOT NULL AND (TG_OP = 'INSERT' OR OLD."printedAt" IS NULL) THEN
    PERFORM webhook_piece_emit(NEW, 'piece.printed', NEW."printedAt");
  END IF;
  IF NEW."mailedAt" IS NOT NULL AND (TG_OP = 'INSERT' OR OLD."mailedAt" IS NULL) THEN
    PERFORM webhook_piece_emit(NEW, 'piece.mailed', NEW."mailedAt");
  END IF;
  IF NEW.status = 'failed' AND (TG_OP = 'INSERT' OR OLD.status <> 'failed') THEN
    PERFORM webhook_piece_emit(NEW, 'piece.failed', NEW."updatedAt");
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER webhook_piece_status_update AFTER UPDATE OF status, "printedAt", "mailedAt" ON "MailPiece" FOR EACH ROW
  WHEN ((NEW."printedAt" IS NOT NULL AND OLD."printedAt" IS NULL) OR (NEW."mailedAt" IS NOT NULL AND OLD."mailedAt" IS NULL)
        OR (NEW.status = 'failed' AND OLD.status <> 'failed'))
  EXECUTE FUNCTION webhook_piece_status();
CREATE TRIGGER webhook_piece_status_insert AFTER INSERT ON "MailPiece" FOR EACH ROW
  WHEN (NEW."printedAt" IS NOT NULL OR NEW."mailedAt" IS NOT NULL OR NEW.status = 'failed')
  EXECUTE FUNCTION webhook_piece_status();

-- response.received
CREATE FUNCTION webhook_response() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF NOT webhook_subscribed(NEW."workspaceId", 'response.received') THEN RETURN NULL; END IF;
  PERFORM webhook_emit(NEW."workspaceId", 'response.received', jsonb_build_object(
    'responseId', NEW.id,
    'kind', NEW.kind::text,
    'campaignId', NEW."campaignId",
    'pieceId', NEW."pieceId",
    'contactId', p."contactId",
    'sid', p.sid,
    'occurredAt', webhook_time(NEW."occurredAt"),
    'details', NEW.data
  ), NEW."occurredAt")
  FROM "MailPiece" p WHERE p.id = NEW."pieceId";
  RETURN NULL;
END
$$;
CREATE TRIGGER webhook_response_insert AFTER INSERT ON "ResponseEvent" FOR EACH ROW EXECUTE FUNCTION webhook_response();

-- conversion.recorded: reported against a piece's sid (REST), or an account's outcome (CRM, CSV)
CREATE FUNCTION webhook_conversion() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF NOT webhook_subscribed(NEW."workspaceId", 'conversion.recorded') THEN RETURN NULL; END IF;
  PERFORM webhook_emit(NEW."workspaceId", 'conversion.recorded', jsonb_build_object(
    'outcomeId', NEW.id,
    'kind', NEW.kind::text,
    'amountCents', NEW."amountCents",
    'at', webhook_time(NEW."at"),
    'externalId', NEW."externalId",
    'source', 'api',
    'campaignId', NEW."campaignId",
    'pieceId', NEW."pieceId",
    'contactId', p."contactId",
    'accountId', c."accountId",
    'sid', p.sid
  ), NEW."at")
  FROM "MailPiece" p LEFT JOIN "Contact" c ON c.id = p."contactId" WHERE p.id = NEW."pieceId";
  RETURN NULL;
END
$$;
CREATE TRIGGER webhook_conversion_insert AFTER INSERT ON "Conversion" FOR EACH ROW EXECUTE FUNCTION webhook_conversion();

CREATE FUNCTION webhook_account_outcome() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF NOT webhook_subscribed(NEW."workspaceId", 'conversion.recorded') THEN RETURN NULL; END IF;
  PERFORM webhook_emit(NEW."workspaceId", 'conversion.recorded', jsonb_build_object(
    'outcomeId', NEW.id,
    'kind', NEW.kind::text,
    'amountCents', NEW."amountCents",
    'at', webhook_time(NEW."at"),
    'externalId', NEW."externalId",
    'source', NEW.source::text,
    'accountId', NEW."accountId"
  ), NEW."at");
  RETURN NULL;
END
$$;
CREATE TRIGGER webhook_account_outcome_insert AFTER INSERT ON "AccountOutcome" FOR EACH ROW EXECUTE FUNCTION webhook_account_outcome();

-- campaign.live / campaign.ended
CREATE FUNCTION webhook_campaign() RETURNS TRIGGER LANGUAGE plpgsql AS $$
DECLARE etype TEXT := 'campaign.' || NEW.status::text;
BEGIN
  IF NOT webhook_subscribed(NEW."workspaceId", etype) THEN RETURN NULL; END IF;
  PERFORM webhook_emit(NEW."workspaceId", etype, jsonb_build_object(
    'campaignId', NEW.id,
    'name', NEW.name,
    'format', NEW.format::text,
    'status', NEW.status::text,
    'previousStatus', OLD.status::text,
    'acceptsApiEvents', NEW."acceptsApiEvents",
    'holdoutShare', NEW."holdoutShare",
    'budgetCents', NEW."budgetCents",
    'spentCents', NEW."spentCents",
    'wentLiveAt', webhook_time(NEW."wentLiveAt"),
    'endedAt', webhook_time(NEW."endedAt")
  ), CASE NEW.status WHEN 'ended' THEN NEW."endedAt" ELSE NULL END);
  RETURN NULL;
END
$$;
CREATE TRIGGER webhook_campaign_status AFTER UPDATE OF status ON "Campaign" FOR EACH ROW
  WHEN (NEW.status IS DISTINCT FROM OLD.status AND NEW.status IN ('live', 'ended'))
  EXECUTE FUNCTION webhook_campaign();

-- audit.completed
CREATE FUNCTION webhook_audit() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF NOT webhook_subscribed(NEW."workspaceId", 'audit.completed') THEN RETURN NULL; END IF;
  PERFORM webhook_emit(NEW."workspaceId", 'audit.completed', jsonb_build_object(
    'auditId', NEW.id,
    'audienceId', NEW."audienceId",
    'campaignId', NEW."campaignId",
    'contacts', NEW.contacts,
    'mailable', NEW.mailable,
    'fixable', NEW.fixable,
    'unmailable', NEW.unmailable,
    'accountsWithMailableContact', NEW."accountsWithMailableContact",
    'finishedAt', webhook_time(NEW."finishedAt")
  ), NEW."finishedAt");
  RETURN NULL;
END
$$;
CREATE TRIGGER webhook_audit_update AFTER UPDATE OF status ON "MailabilityAudit" FOR EACH ROW
  WHEN (NEW.status IS DISTINCT FROM OLD.status AND NEW.status = 'succeeded')
  EXECUTE FUNCTION webhook_audit();
CREATE TRIGGER webhook_audit_insert AFTER INSERT ON "MailabilityAudit" FOR EACH ROW
  WHEN (NEW.status = 'succeeded')
  EXECUTE FUNCTION webhook_audit();

-- import.completed / crm_sync.completed (their jobs succeeded)
CREATE FUNCTION webhook_job() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.kind = 'contacts_import' AND webhook_subscribed(NEW."workspaceId", 'import.completed') THEN
    PERFORM webhook_emit(NEW."workspaceId", 'import.completed', jsonb_build_object(
      'importId', i.id,
      'jobId', NEW.id,
      'fileName', i."fileName",
      'rows', i."rowCount",
      'created', i.created,
      'updated', i.updated,
      'skipped', i.skipped,
      'refused', i.refused,
      'audienceId', i."audienceId",
      'finishedAt', webhook_time(NEW."finishedAt")
    ), NEW."finishedAt")
    FROM "ContactImport" i WHERE i."jobId" = NEW.id;
  ELSIF NEW.kind = 'crm_sync' AND webhook_subscribed(NEW."workspaceId", 'crm_sync.completed') THEN
    PERFORM webhook_emit(NEW."workspaceId", 'crm_sync.completed', jsonb_build_object(
      'syncId', s.id,
      'jobId', NEW.id,
      'connectionId', s."connectionId",
      'crm', c.kind::text,
      'mode', s.mode::text,
      'trigger', s.trigger::text,
      'counts', s.counts,
      'finishedAt', webhook_time(NEW."finishedAt")
    ), NEW."finishedAt")
    FROM "CrmSync" s JOIN "CrmConnection" c ON c.id = s."connectionId" WHERE s."jobId" = NEW.id;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER webhook_job_succeeded AFTER UPDATE OF status ON "Job" FOR EACH ROW
  WHEN (NEW.status IS DISTINCT FROM OLD.status AND NEW.status = 'succeeded' AND NEW.kind IN ('contacts_import', 'crm_sync'))
  EXECUTE FUNCTION webhook_job();
