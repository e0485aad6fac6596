import { databaseTarget } from "./config";
import { type Database, openDatabase } from "./database";

const key = Symbol.for("direct-mail.database");
type Holder = { [key]?: Database };

/**
 * The process's database: opened once (PGlite must be opened by one process only) and shared by
 * every bundle of the Next server through globalThis. Scripts and tests install their own with
 * `useDatabase`.
 */
export function getDatabase(): Database {
  const holder = globalThis as Holder;
  holder[key] ??= openDatabase(databaseTarget());
  return holder[key];
}

/** Installs an already opened database as the process's one (scripts, tests). */
export function useDatabase(database: Database): void {
  (globalThis as Holder)[key] = database;
}
