import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { authOptions } from "@/server/records/auth/options";
import { refuseAuthRequest } from "@/server/records/auth/nextauth-guard";

const handler = NextAuth(authOptions);

type Context = { params: Promise<{ nextauth: string[] }> };

async function guarded(req: NextRequest, context: Context) {
  const { nextauth } = await context.params;
  return refuseAuthRequest(req, nextauth ?? []) ?? handler(req, context);
}

export { guarded as GET, guarded as POST };
