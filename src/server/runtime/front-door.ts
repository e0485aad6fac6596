import type { IncomingMessage, ServerResponse } from "node:http";
import { resolveClientAddress, resolvedAddressHeaders, type TrustProxy } from "@/server/ground/http/client-address";
import type { DirectDoors } from "./door-registry";
import { boundUnreadBody } from "./unread-body";
import {
  addAllowToMethodNotAllowed,
  allowedMethods,
  refuseMalformedTarget,
  refuseUnknownMethod,
} from "@/server/ground/http/methods";

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * What the production server (scripts/serve.ts) does with every request before anything else
 * reads it: resolve the client's address from the connection (and TRUST_PROXY) into
 * CLIENT_ADDRESS_HEADER with this process's seal, overwriting any the client sent; answer a method no route takes with 405
 * and an address that cannot be decoded with 400;
 * then hand the request to the direct API doors, or to Next (whose 405s get an Allow header). Once
 * the answer is written, what the client still sends of the body is read only within bounds (unread-body.ts).
 * Imported by that server directly: relative imports only.
 */
export function frontDoor(p: { trust: TrustProxy; doors: DirectDoors; next: NodeHandler }): NodeHandler {
  return (req, res) => {
    const forwarded = req.headers["x-forwarded-for"];
    res.prependOnceListener("finish", () => boundUnreadBody(req));
    Object.assign(
      req.headers,
      resolvedAddressHeaders(
        resolveClientAddress(
          req.socket.remoteAddress,
          Array.isArray(forwarded) ? forwarded.join(",") : forwarded,
          p.trust,
        ),
      ),
    );
    if (refuseUnknownMethod(req, res, (path) => p.doors.allow(path) ?? allowedMethods(path))) return;
    if (refuseMalformedTarget(req, res)) return;
    if (p.doors.serve(req, res)) return;
    addAllowToMethodNotAllowed(req, res);
    p.next(req, res);
  };
}
