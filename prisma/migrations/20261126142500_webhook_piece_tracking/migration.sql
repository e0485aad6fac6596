-- Outbound webhooks from the printer's tracking: piece.delivered and piece.returned when a piece's
-- tracking status becomes delivered or returned_to_sender (a Lob webhook, or the sandbox). The
-- piece's data now carries its tracking status and the vendor's mode (test or live).

CREATE OR REPLACE FUNCTION webhook_piece_data(p "MailPiece") RETURNS JSONB LANGUAGE sql STABLE AS $$
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
    'vendorMode', p."vendorMode",
    'trackingStatus', p."trackingStatus",
    'costCents', p."costCents",
    'printedAt', webhook_time(p."printedAt"),
    'mailedAt', webhook_time(p."mailedAt")
  )
$$;

CREATE FUNCTION webhook_piece_tracking() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_piece_emit(NEW, CASE NEW."trackingStatus" WHEN 'delivered' THEN 'piece.delivered' ELSE 'piece.returned' END,
    COALESCE(NEW."trackingUpdatedAt", now() AT TIME ZONE 'UTC'));
  RETURN NULL;
END
$$;
CREATE TRIGGER webhook_piece_tracking AFTER UPDATE OF "trackingStatus" ON "MailPiece" FOR EACH ROW
  WHEN (NEW."trackingStatus" IS DISTINCT FROM OLD."trackingStatus" AND NEW."trackingStatus" IN ('delivered', 'returned_to_sender'))
  EXECUTE FUNCTION webhook_piece_tracking();
