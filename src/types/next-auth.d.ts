import "next-auth";
import "next-auth/jwt";

declare module "next-auth" {
  interface Session {
    /** epoch: the person's sessionEpoch when this session signed in. */
    user: { id: string; email: string; name?: string | null; epoch?: number };
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    epoch?: number;
  }
}
