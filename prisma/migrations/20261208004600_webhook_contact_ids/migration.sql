-- Outbound webhooks name a contact the way the receiver's own systems know it: every event whose
-- data carries a contactId also carries contactEmail (when the contact has one) and contactCrmIds,
-- the CRM records the workspace's CRM connections synced the contact from, written as the API takes
-- them ("hubspot:<id>", "salesforce:<id>"; empty when none). Added where every event is written,
-- so each event type that names a contact gets them.

CREATE FUNCTION webhook_contact_identity(ws TEXT, contact_id TEXT) RETURNS JSONB LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'contactEmail', ct.email,
    'contactCrmIds', COALESCE(
      (SELECT jsonb_agg(k.kind::text || ':' || l."externalId" ORDER BY k.kind, l."objectType", l."externalId")
         FROM "CrmConnection" k
         JOIN "CrmRecordLink" l ON l."connectionId" = k.id AND l."objectType" IN ('contact', 'lead') AND l."localId" = ct.id
        WHERE k."workspaceId" = ws),
      '[]'::jsonb)
  )
  FROM "Contact" ct
  WHERE ct.id = contact_id AND ct."workspaceId" = ws
$$;

CREATE OR REPLACE FUNCTION webhook_emit(ws TEXT, etype TEXT, payload JSONB, at TIMESTAMP) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
  event_id TEXT;
  now_utc TIMESTAMP := now() AT TIME ZONE 'UTC';
  body JSONB := jsonb_strip_nulls(payload);
BEGIN
  IF body ? 'contactId' THEN
    body := body || COALESCE(jsonb_strip_nulls(webhook_contact_identity(ws, body->>'contactId')), '{}'::jsonb);
  END IF;
  INSERT INTO "WebhookEvent" ("workspaceId", type, data, "occurredAt", "createdAt")
  VALUES (ws, etype, body, COALESCE(at, now_utc), now_utc)
  RETURNING id INTO event_id;
  INSERT INTO "WebhookDelivery" ("workspaceId", "endpointId", "eventId", "nextAttemptAt", "createdAt", "updatedAt")
  SELECT ws, e.id, event_id, now_utc, now_utc, now_utc
  FROM "WebhookEndpoint" e
  WHERE e."workspaceId" = ws AND e.enabled AND etype = ANY (e.events);
END
$$;
